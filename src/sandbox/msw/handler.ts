/**
 * The MSW request handler that serves the sandbox: a `RequestHandler` of its
 * own rather than `http.all(pattern, …)`. MSW runs every handler it tries on
 * every request: an `HttpHandler` parses the URL against a path pattern and
 * reads the request's cookies (MSW's cookie store, with a public-suffix
 * lookup) to hand its resolver `params` and `cookies`. The sandbox needs
 * neither: a request is its own when its URL is under one of the mounts'
 * base URLs, a plain prefix test, and that is all this handler does before
 * answering.
 */
import { RequestHandler } from 'msw';
import { startsAtBoundary } from '../router.js';
import type { MswMount } from './mounts.js';

/** What `parse` finds: the mount whose base URL the request is under, if any. */
interface MountMatch {
  mount: MswMount | undefined;
}

/** What the resolver receives besides the request. */
interface MountedRequest extends Record<string, unknown> {
  mount: MswMount;
}

/** Answers a request under `mount` (the request as MSW intercepted it). */
export type AnswerMounted = (request: Request, mount: MswMount) => Promise<Response>;

/**
 * The MSW request handler `sandboxHandlers` returns: one for every mount.
 * Its base URLs are matched on a request's origin and path (no query,
 * fragment or user info), as MSW matched them for `http.all`.
 */
export class SandboxRequestHandler extends RequestHandler<{ header: string }, MountMatch, MountedRequest> {
  readonly #mounts: readonly MswMount[];

  /** `mounts` longest base first (a base path below another's wins), as `mswMounts` gives them. */
  constructor(mounts: readonly MswMount[], answer: AnswerMounted) {
    super({
      // What `server.listHandlers()` shows, and MSW's messages name.
      info: { header: `sandbox: ${mounts.map((mount) => `${mount.api} ${mount.base}`).join(', ')}` },
      resolver: ({ request, mount }) => answer(request, mount),
    });
    this.#mounts = mounts;
  }

  /** The mount the request is under, found from its origin and path. */
  override async parse({ request }: { request: Request }): Promise<MountMatch> {
    const { origin, pathname } = new URL(request.url);
    const target = origin + pathname;
    return { mount: this.#mounts.find((mount) => startsAtBoundary(target, mount.base)) };
  }

  /** The request is the sandbox's when it is under a mount, whatever its method. */
  predicate({ parsedResult }: { parsedResult: MountMatch }): boolean {
    return parsedResult.mount !== undefined;
  }

  protected override extendResolverArgs({ parsedResult }: { parsedResult: MountMatch }): MountedRequest {
    // Called only once `predicate` took the request.
    return { mount: parsedResult.mount! };
  }

  /** MSW logs handled requests where it is not quiet (`setupWorker` by default): one collapsed line each, as its own handlers do. */
  log({ request, response }: { request: Request; response: Response }): void {
    console.groupCollapsed(`[MSW] ${new Date().toTimeString().slice(0, 8)} ${request.method} ${request.url} (${response.status} ${response.statusText}) from the sandbox`);
    console.log('Request', request);
    console.log('Handler:', this);
    console.log('Response', response);
    console.groupEnd();
  }
}
