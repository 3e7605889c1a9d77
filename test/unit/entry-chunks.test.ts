/**
 * libsecp256k1 (83 kB of WebAssembly) loads only where a report is
 * verified or signed: the entries' initial loads, bundled with code splitting
 * as a user's bundler would, hold none of it; a user module that calls
 * `verifyReport` holds it, and the REST helpers, the live stream and the
 * sandbox reach it only through a lazy chunk.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { entryChunks, exportsOf, type Chunk } from '../../bench/entry-chunks.js';

const root = resolve(import.meta.dirname, '../..');
const entry = (path: string): string => join(root, path);

/** 64 characters from inside the binary's base64 (past the header every WebAssembly module shares). */
const marker = (() => {
  const source = readFileSync(entry('generated/wasm/secp256k1.js'), 'utf8');
  const base64 = /'([A-Za-z0-9+/=]{100000,})'/.exec(source)?.[1];
  if (base64 === undefined) throw new Error('generated/wasm/secp256k1.js holds no base64 binary');
  return base64.slice(10_000, 10_064);
})();
const holdsSecp256k1 = (chunks: readonly Chunk[]): boolean => chunks.some((chunk) => chunk.code.includes(marker));
/** `@noble/curves`' secp256k1: the curve's order n, as its module writes it. */
const holdsNobleCurve = (chunks: readonly Chunk[]): boolean => chunks.some((chunk) => /baaedce6af48a03bbfd25e8cd0364141/i.test(chunk.code));

/** Every export of an entry but `verifyReport`: what a user who does not verify imports. */
async function allBut(source: string, name: string): Promise<string[]> {
  const names = await exportsOf(source);
  expect(names).toContain(name);
  return names.filter((n) => n !== name);
}

describe('libsecp256k1 out of the initial loads', () => {
  it('./streams: every export but verifyReport loads no secp256k1; verifying with the REST helpers or the stream loads it lazily', async () => {
    const source = entry('src/streams/index.ts');
    const { initial, lazy } = await entryChunks(source, await allBut(source, 'verifyReport'));
    expect(holdsSecp256k1(initial)).toBe(false);
    expect(holdsNobleCurve(initial)).toBe(false);
    expect(holdsSecp256k1(lazy)).toBe(true);
  }, 60_000);

  it('./report-decoder: every export but verifyReport loads no secp256k1', async () => {
    const source = entry('src/reports/index.ts');
    const { initial } = await entryChunks(source, await allBut(source, 'verifyReport'));
    expect(holdsSecp256k1(initial)).toBe(false);
  }, 60_000);

  it('./sandbox: neither its initial load nor its lazy DON signer holds libsecp256k1; the signer (@noble/curves) is a lazy chunk', async () => {
    const { initial, lazy } = await entryChunks(entry('src/sandbox/index.ts'));
    expect(holdsSecp256k1(initial)).toBe(false);
    expect(holdsSecp256k1(lazy)).toBe(false);
    expect(holdsNobleCurve(initial)).toBe(false);
    expect(holdsNobleCurve(lazy)).toBe(true);
  }, 60_000);

  it('a user module that calls verifyReport loads secp256k1 with it', async () => {
    const { initial } = await entryChunks(entry('src/reports/index.ts'), ['verifyReport']);
    expect(holdsSecp256k1(initial)).toBe(true);
  }, 60_000);
});
