import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { CallOptions, KnownCallOption } from './call-options.js';
import type { WithOptions } from './derived-client.js';

/**
 * The clients' types: openapi-fetch's `Client`, whose call methods also take
 * the SDK's per-call options (`timeoutMs`, `deadlineMs`, `retry`) and refuse
 * any other key at compile time. openapi-fetch lets any key through
 * (`{ [key: string]: unknown }`), so a misspelt option would type-check and
 * be ignored; here it is an error, as it is at run time.
 */

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type MediaType = `${string}/${string}`;

/** The paths of `Paths` that have `Method`. */
type PathsWithMethod<Paths, Method extends HttpMethod> = {
  [P in keyof Paths]: Paths[P] extends { [K in Method]: unknown } ? P : never;
}[keyof Paths];

type RequiredKeysOf<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];

/** One call's init: openapi-fetch's, the SDK's own options, and nothing else (an unknown key is `never`). */
type CallInit<Init> = Init & CallOptions & { [K in Exclude<keyof Init, KnownCallOption>]?: never };
type CallInitParam<Init> = RequiredKeysOf<Init> extends never ? [CallInit<Init>?] : [CallInit<Init>];

/** A call method (`GET`, `POST`, …) of an SDK client. */
export type SdkClientMethod<Paths extends {}, Method extends HttpMethod, Media extends MediaType = MediaType> = <
  Path extends PathsWithMethod<Paths, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>,
>(
  url: Path,
  ...init: CallInitParam<Init>
) => Promise<FetchResponse<Paths[Path][Method & keyof Paths[Path]] & Record<string | number, any>, Init, Media>>;

/** A typed client of one API: openapi-fetch's call methods with the SDK's per-call options, plus `use`/`eject`. */
export interface SdkClient<Paths extends {}, Media extends MediaType = MediaType> extends Omit<Client<Paths, Media>, Uppercase<HttpMethod>> {
  /** Call a GET endpoint */
  GET: SdkClientMethod<Paths, 'get', Media>;
  /** Call a PUT endpoint */
  PUT: SdkClientMethod<Paths, 'put', Media>;
  /** Call a POST endpoint */
  POST: SdkClientMethod<Paths, 'post', Media>;
  /** Call a DELETE endpoint */
  DELETE: SdkClientMethod<Paths, 'delete', Media>;
  /** Call an OPTIONS endpoint */
  OPTIONS: SdkClientMethod<Paths, 'options', Media>;
  /** Call a HEAD endpoint */
  HEAD: SdkClientMethod<Paths, 'head', Media>;
  /** Call a PATCH endpoint */
  PATCH: SdkClientMethod<Paths, 'patch', Media>;
  /** Call a TRACE endpoint */
  TRACE: SdkClientMethod<Paths, 'trace', Media>;
  /**
   * This client with options added to every call it makes: how a helper
   * (`getLatestReport`, `waitForOperation`, …) gets per-call options.
   *
   *     await waitForOperation(channels.withOptions({ timeoutMs: 5_000, retry: false }), ref);
   */
  withOptions(options: WithOptions): this;
}
