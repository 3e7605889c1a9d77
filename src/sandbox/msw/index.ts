/**
 * `@ourteam/service-sdk/sandbox/msw`: the offline sandbox as MSW 2 request
 * handlers, for code that takes no `fetch` (a client made at module level,
 * an application's own HTTP layer, `node:http`). The only module of the
 * package that imports `msw`, an optional peer dependency.
 */
import { SandboxUsageError } from '../errors.js';
import type { SandboxServedBaseUrls } from '../base-url-routing.js';
import type { Sandbox } from '../sandbox.js';
import { startsAtBoundary } from '../router.js';
import { answerFromSandbox } from './answer.js';
import { SandboxRequestHandler } from './handler.js';
import { mswMounts, type MswMount } from './mounts.js';

/** Options of `sandboxHandlers`. */
export interface SandboxHandlersOptions {
  /**
   * Your clients' base URLs, by API, served besides the SDK's defaults
   * (channels' default address, streams mainnet and testnet, the policy
   * host), which are always served. Name your organisation's channels
   * address here (e.g. `{ channels: 'https://acme.example/v1' }`); `policy`
   * is the host, below which its three APIs live, or, for a policy API
   * behind a proxy, the base URL of each API as the policy client's
   * `baseUrls` names it (`{ policy: { evaluation: 'https://proxy.acme.example/policy' } }`).
   */
  baseUrls?: SandboxServedBaseUrls;
}

/**
 * MSW 2 request handlers that answer every request under the APIs' base URLs
 * from `sandbox`: with `setupServer(...sandboxHandlers(sandbox))` (Node) or
 * `setupWorker(...)` (browsers), global `fetch`, `node:http`/`https` and the
 * SDK's clients without a `fetch` option all reach the same stateful sandbox.
 * A request under those base URLs that the sandbox does not serve is
 * answered `404` naming why (the API's own `NOT_FOUND` below an API's base
 * URL, `{ type: 'SANDBOX_USAGE_ERROR', message }` where no API fits), never
 * sent to the network; requests elsewhere are left to MSW's
 * `onUnhandledRequest`. Streams' HMAC signatures are checked as the sandbox
 * always checks them, and its faults (`sandbox.inject`) apply (`drop`
 * is a network error).
 *
 * @throws SandboxUsageError when `sandbox` is not a sandbox or a base URL is
 * one `createSandbox` refuses (the same rules, in the same words: one a
 * client would not take, or a base path the service does not have).
 */
export function sandboxHandlers(sandbox: Sandbox, options: SandboxHandlersOptions = {}): SandboxRequestHandler[] {
  if (sandbox === null || typeof sandbox !== 'object' || typeof sandbox.fetch !== 'function' || typeof sandbox.dispatch !== 'function') {
    throw new SandboxUsageError('sandboxHandlers(): the first argument must be a sandbox from createSandbox()');
  }
  if (options === null || typeof options !== 'object') throw new SandboxUsageError('sandboxHandlers(): options must be an object ({ baseUrls })');
  return [handlerFor(sandbox, mswMounts(options.baseUrls))];
}

/**
 * One handler for every base URL: MSW parses a request once per handler it
 * tries, so one handler costs a request a single parse. A channels or policy
 * request under a base URL of the user's is handed over below that API's
 * default one (see mounts.ts).
 */
function handlerFor(sandbox: Sandbox, mounts: readonly MswMount[]): SandboxRequestHandler {
  return new SandboxRequestHandler(mounts, (request, mount) => {
    // A URL MSW matched by its origin and path but that does not start with them (user info, a fragment) goes as sent.
    const url = startsAtBoundary(request.url, mount.base) ? mount.sandboxUrl(request.url) : request.url;
    return answerFromSandbox(sandbox, request, url);
  });
}

export { SANDBOX_USAGE_ERROR_TYPE } from './answer.js';
export type { SandboxRequestHandler } from './handler.js';
export type { SandboxBaseUrlsOption, SandboxPolicyBaseUrls, SandboxServedBaseUrls } from '../base-url-routing.js';
export { SandboxUsageError } from '../errors.js';
