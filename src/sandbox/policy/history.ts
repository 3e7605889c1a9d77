/**
 * Point-in-time records for the reporting API: each key (a policy on a chain,
 * a wallet mapping, a protected function...) has a list of versions, each in
 * force from its block's time until the next one replaced it or the thing was
 * removed. `as_of` answers pick the version in force at that instant.
 */
import type { BlockRef } from './chain.js';

export interface Version<V> {
  readonly value: V;
  /** 1-based position among the key's versions. */
  readonly number: number;
  readonly block: BlockRef;
  /** In force from (Unix ms, the block's time). */
  readonly from: number;
  /** Replaced or removed at (Unix ms); `null` while in force. */
  to: number | null;
}

export class History<V> {
  private readonly versions = new Map<string, Version<V>[]>();

  /** A new version of `key` from `block.time`, closing the one in force. */
  put(key: string, value: V, block: BlockRef): Version<V> {
    const list = this.versions.get(key) ?? [];
    const current = list[list.length - 1];
    if (current !== undefined && current.to === null) current.to = block.time;
    const version: Version<V> = { value, number: list.length + 1, block, from: block.time, to: null };
    list.push(version);
    this.versions.set(key, list);
    return version;
  }

  /** `key` is no longer in force from `time`. */
  end(key: string, time: number): void {
    const current = this.current(key);
    if (current !== undefined) current.to = time;
  }

  current(key: string): Version<V> | undefined {
    const last = this.versions.get(key)?.at(-1);
    return last?.to === null ? last : undefined;
  }

  latest(key: string): Version<V> | undefined {
    return this.versions.get(key)?.at(-1);
  }

  /** The version in force at `time`. */
  at(key: string, time: number): Version<V> | undefined {
    return this.versions.get(key)?.find((version) => version.from <= time && (version.to === null || time < version.to));
  }

  all(key: string): readonly Version<V>[] {
    return this.versions.get(key) ?? [];
  }

  keys(): string[] {
    return [...this.versions.keys()];
  }

  /** Every version in force at `time`, one per key. */
  inForceAt(time: number): Version<V>[] {
    return this.keys().flatMap((key) => this.at(key, time) ?? []);
  }

  clear(): void {
    this.versions.clear();
  }
}
