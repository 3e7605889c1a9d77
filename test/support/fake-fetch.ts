/**
 * A scripted `fetch` for unit tests: each call takes the next answer from a
 * queue (a Response, a thrown error, or a function of the request), and every
 * request is recorded with its body text and headers as sent.
 */
export type Answer = Response | Error | ((request: Request, init?: RequestInit) => Response | Promise<Response>);

export interface SentRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string | undefined;
  signal: AbortSignal;
}

export function fakeFetch(...answers: Answer[]) {
  const sent: SentRequest[] = [];
  const queue = [...answers];
  async function fetch(request: Request, init?: RequestInit): Promise<Response> {
    const signal = init?.signal ?? request.signal;
    const body = request.body === null ? undefined : await request.clone().text();
    sent.push({ method: request.method, url: request.url, headers: new Headers(request.headers), body, signal });
    const next = queue.shift();
    if (next === undefined) throw new Error(`fakeFetch: no answer scripted for ${request.method} ${request.url}`);
    if (next instanceof Error) throw next;
    if (typeof next === 'function') return next(request, init);
    return next;
  }
  return { fetch, sent, remaining: () => queue.length };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** A fetch that never answers until its signal aborts, like a hung connection. */
export function hangingAnswer(): Answer {
  return (_request, init) =>
    new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
}

/** A sleep that records the waits and returns at once. */
export function instantSleep() {
  const waits: number[] = [];
  const sleep = async (ms: number, signal: AbortSignal | undefined) => {
    signal?.throwIfAborted();
    waits.push(ms);
  };
  return { sleep, waits };
}
