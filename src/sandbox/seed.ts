/**
 * `createSandbox({ seed })`: records a user's tests start from, besides the
 * built-in ones, and that `reset()` brings back. Checked whole at
 * createSandbox(), so bad seed data is a SandboxUsageError naming the field
 * there, never a sandbox that quietly lacks a record.
 */
import { describe } from '../core/options.js';
import { prepareChannelsSeed, type ChannelsSeed, type PreparedChannelsSeed } from './channels/seed.js';
import { SandboxUsageError } from './errors.js';

export type { ChannelsSeed, SeedChannel, SeedWallet } from './channels/seed.js';

/**
 * What `createSandbox({ seed })` takes. Supported: the channels API's
 * wallets and channels (`ChannelsSeed`), with your own names and IDs. Each
 * record is what its `POST` takes, plus its ID and a settled status; it
 * exists from the start, as if created before the sandbox: its name is
 * taken, it is listed and found by ID, and operations run on it. `reset()`
 * brings every seeded record back as seeded and drops the rest. The
 * built-in seed (networks; the policy APIs' engines, implementations and
 * wallet, `SANDBOX_POLICY_IDS`) is always there. Other APIs cannot be seeded
 * yet: a key for them is refused rather than ignored.
 */
export interface SandboxSeed {
  channels?: ChannelsSeed;
}

/** The seed, checked and with every ID given, as each API's behaviour plants it. */
export interface PreparedSeed {
  channels: PreparedChannelsSeed;
}

const SEEDABLE: readonly (keyof SandboxSeed)[] = ['channels'];

export function checkSeed(seed: unknown): PreparedSeed {
  if (seed === undefined) return { channels: prepareChannelsSeed(undefined) };
  if (seed === null || typeof seed !== 'object' || Array.isArray(seed)) {
    throw new SandboxUsageError(`createSandbox(): seed: expected an object ({ channels }), got ${describe(seed)}`);
  }
  const unknown = Object.keys(seed).find((key) => !(SEEDABLE as readonly string[]).includes(key));
  if (unknown !== undefined) {
    throw new SandboxUsageError(`createSandbox(): seed.${unknown.slice(0, 40)}: the sandbox can seed ${SEEDABLE.join(', ')} only`);
  }
  return { channels: prepareChannelsSeed((seed as Record<string, unknown>).channels) };
}
