// Until the clients take attempt observers themselves, this stands in for the
// transport's side of the contract in src/core/observe.ts: a `fetch` that
// retries 503s itself, and per attempt calls every observer with the
// attempt's Headers before sending (so an observer may add trace context)
// and the end of the attempt after. Give it to a client with `retry: false`.
import type { AttemptObserver, AttemptEnd } from '../../src/core/observe.js';

type Fetch = (input: Request, init?: RequestInit) => Promise<Response>;

export function observedFetch(observers: readonly AttemptObserver[], template: string, send: Fetch, maxAttempts = 3): Fetch {
  return async (input) => {
    const body = input.body === null ? undefined : await input.text();
    for (let attempt = 1; ; attempt++) {
      const url = new URL(input.url);
      const start = {
        operation: { method: input.method, path: template, urlPath: url.pathname },
        attempt,
        maxAttempts,
        url: url.href,
        headers: new Headers(input.headers),
        startedAt: Date.now(),
      };
      const ends = observers.map((observe) => observe(start));
      const finish = (end: Omit<AttemptEnd, keyof typeof start | 'durationMs'>) => {
        for (const done of ends) done?.({ ...start, durationMs: Date.now() - start.startedAt, ...end });
      };
      let response: Response;
      try {
        response = await send(new Request(url, { method: input.method, headers: start.headers, body }));
      } catch (error) {
        finish({ errorType: 'ApiConnectionError', error: error as Error, retry: { willRetry: false, reason: 'not retried here' } });
        throw error;
      }
      const willRetry = response.status === 503 && attempt < maxAttempts;
      const requestId = response.headers.get('x-request-id') ?? undefined;
      finish({ status: response.status, requestId, retry: { willRetry, reason: willRetry ? '503 is transient' : 'final answer' } });
      if (!willRetry) return response;
    }
  };
}
