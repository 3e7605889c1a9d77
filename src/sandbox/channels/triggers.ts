/**
 * How a test asks the channels sandbox for a failure path, with values the
 * spec allows in ordinary requests (so the request itself stays valid):
 *
 * | resource  | field                              | value                     | outcome                                            |
 * | --------- | ---------------------------------- | ------------------------- | -------------------------------------------------- |
 * | wallet    | `name`                             | starts with `fail-deploy` | deployment ends `failed`                           |
 * | wallet    | `name`                             | starts with `fail-chain`  | creation refused `409 CHAIN_UNAVAILABLE`           |
 * | watcher   | `name`                             | starts with `fail-deploy` | deployment ends `failed`                           |
 * | watcher   | `name` (when the archive starts)   | starts with `fail-archive`| archive ends `archive_failed`                      |
 * | operation | any `transactions[].to`            | `FAILING_ADDRESS`         | relayed, then `failed`                             |
 * | operation | any `transactions[].to`            | `SILENT_ADDRESS`          | never confirmed: `expired` at its `deadline`       |
 * | query     | `params.contract_address`          | `FAILING_ADDRESS`         | `failed`                                           |
 * | query     | `params.contract_address`          | `SILENT_ADDRESS`          | no result: `expired` at its `expires_at`           |
 *
 * Addresses compare case-insensitively. Everything else succeeds.
 */

/** A call to this address fails (`0x…fa11`). */
export const FAILING_ADDRESS = '0x000000000000000000000000000000000000fa11';
/** A call to this address never gets an answer (`0x…dead`). */
export const SILENT_ADDRESS = '0x000000000000000000000000000000000000dead';

export const FAIL_DEPLOY_PREFIX = 'fail-deploy';
export const FAIL_CHAIN_PREFIX = 'fail-chain';
export const FAIL_ARCHIVE_PREFIX = 'fail-archive';

/** What happens to an operation or a query once sent. */
export type CallOutcome = 'succeeds' | 'fails' | 'silent';

export function callOutcome(addresses: readonly string[]): CallOutcome {
  const lower = addresses.map((address) => address.toLowerCase());
  if (lower.includes(FAILING_ADDRESS)) return 'fails';
  if (lower.includes(SILENT_ADDRESS)) return 'silent';
  return 'succeeds';
}

export function asksDeployFailure(name: string): boolean {
  return name.startsWith(FAIL_DEPLOY_PREFIX);
}

export function asksChainUnavailable(name: string): boolean {
  return name.startsWith(FAIL_CHAIN_PREFIX);
}

export function asksArchiveFailure(name: string | undefined): boolean {
  return name?.startsWith(FAIL_ARCHIVE_PREFIX) === true;
}
