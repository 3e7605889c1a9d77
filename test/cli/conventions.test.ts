// The conventions users of gh, curl and the Stripe CLI reach for:
// -v/--verbose (request and response lines on stderr, credentials
// redacted), -i/--include (status line and headers before the body),
// -H/--header (repeatable, refusing the SDK's auth headers), raw requests by
// path (`<api> request <METHOD> <path>`, an unknown path refused with the
// nearest documented one), and colour for JSON on a terminal only, never
// with NO_COLOR.
import { describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { cli, sandboxEnv } from './support/run-cli.js';

describe('with a listening sandbox', () => {
  const live = useListeningSandbox();
  const env = () => sandboxEnv(live.sandbox, live.listener);

  it('-v prints method, URL, status and timing on stderr, the key redacted; stdout unchanged', async () => {
    const plain = await cli(['channels', 'list-networks'], { env: env() });
    const verbose = await cli(['channels', 'list-networks', '-v'], { env: env() });
    expect(verbose.code).toBe(0);
    expect(verbose.stdout).toBe(plain.stdout);
    expect(verbose.stderr).toMatch(new RegExp(`^> GET ${live.listener.baseUrls.channels}/networks\\n`));
    expect(verbose.stderr).toMatch(/^> authorization: Apikey <redacted>$/m);
    expect(verbose.stderr).toMatch(/^< 200 \(\d+ ms\)$/m);
    expect(verbose.stderr).not.toContain(live.sandbox.credentials.channels.apiKey);
  });

  it('-i prints the status line and headers before the body on stdout', async () => {
    const run = await cli(['channels', 'list-networks', '--include'], { env: env() });
    expect(run.code).toBe(0);
    const [head, body] = run.stdout.split('\n\n');
    expect(head).toMatch(/^HTTP\/1\.1 200 OK\n(.*\n)*content-type: application\/json/i);
    expect(JSON.parse(body!).data.length).toBeGreaterThan(0);
  });

  /** stdout of a command run with -i: the head (status line, headers) and the body after the blank line. */
  const headAndBody = (stdout: string) => {
    const split = stdout.indexOf('\n\n');
    if (split < 0) return { head: '', body: JSON.parse(stdout) };
    return { head: stdout.slice(0, split), body: JSON.parse(stdout.slice(split + 2)) };
  };

  it('-i on an error answer (404, 400) prints its status line and headers before the error body on stdout; the exit code stays 1', async () => {
    const missing = crypto.randomUUID();
    const notFound = await cli(['channels', 'get-channel', '--channel-id', missing, '-i'], { env: env() });
    expect([notFound.code, notFound.stderr]).toEqual([1, expect.stringMatching(/^service-sdk: 404 /)]);
    const answer404 = headAndBody(notFound.stdout);
    expect(answer404.head).toMatch(/^HTTP\/1\.1 404 Not Found\n(.*\n)*content-type: application\/json/i);
    expect(answer404.body).toEqual((await cli(['channels', 'get-channel', '--channel-id', missing], { env: env() })).json);

    const raw = await cli(['channels', 'request', 'GET', `/channels/${missing}`, '--include'], { env: env() });
    expect([raw.code, headAndBody(raw.stdout).head]).toEqual([1, expect.stringMatching(/^HTTP\/1\.1 404 Not Found\n/)]);

    live.sandbox.inject({ route: 'listNetworks', status: 400 });
    const badRequest = await cli(['channels', 'list-networks', '-i'], { env: env() });
    expect([badRequest.code, badRequest.stderr]).toEqual([1, expect.stringMatching(/^service-sdk: 400 /)]);
    const answer400 = headAndBody(badRequest.stdout);
    expect(answer400.head).toMatch(/^HTTP\/1\.1 400 Bad Request\n(.*\n)*content-type: application\/json/i);
    expect(answer400.body).toMatchObject({ message: expect.any(String) });
  });

  it('-H adds a header to the request, and refuses to override an auth header', async () => {
    const added = await cli(['channels', 'list-networks', '-H', 'X-Trace: abc', '-v'], { env: env() });
    expect(added.code).toBe(0);
    expect(added.stderr).toMatch(/^> x-trace: abc$/m);
    const refused = await cli(['channels', 'list-networks', '-H', 'Authorization: Apikey other'], { env: env() });
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('-H: Authorization is set from the credentials')]);
    const malformed = await cli(['channels', 'list-networks', '--header', 'no colon'], { env: env() });
    expect([malformed.code, malformed.stderr]).toEqual([2, expect.stringContaining("--header: expected 'Name: value'")]);
  });

  it('request <METHOD> <path> sends a documented path, signed and typed; an unknown path is refused with the nearest documented one', async () => {
    const raw = await cli(['channels', 'request', 'GET', '/networks'], { env: env() });
    const typed = await cli(['channels', 'list-networks'], { env: env() });
    expect([raw.code, raw.json]).toEqual([0, typed.json]);
    const created = await cli(['channels', 'request', 'POST', '/channels', '--data', '{"name":"raw"}'], { env: env() });
    expect([created.code, created.json?.name]).toEqual([0, 'raw']);
    const byId = await cli(['channels', 'request', 'GET', `/channels/${created.json.channel_id}`], { env: env() });
    expect([byId.code, byId.json?.channel_id]).toEqual([0, created.json.channel_id]);
    const streams = await cli(['streams', 'request', 'GET', '/api/v1/discovery'], { env: env() });
    expect(streams.code).toBe(0);
    const unknown = await cli(['channels', 'request', 'GET', '/network'], { env: env() });
    expect([unknown.code, unknown.stderr]).toEqual([2, expect.stringContaining('GET /network is not a documented channels path (did you mean GET /networks?)')]);
  });

  it('colours JSON on a terminal only, never with NO_COLOR or in a pipe', async () => {
    const terminal = await cli(['channels', 'list-networks'], { env: env(), tty: true });
    expect(terminal.stdout).toContain('\x1b[');
    const noColor = await cli(['channels', 'list-networks'], { env: { ...env(), NO_COLOR: '1' }, tty: true });
    expect(noColor.stdout).not.toContain('\x1b[');
    expect(JSON.parse(noColor.stdout)).toEqual(JSON.parse(terminal.stdout.replace(/\x1b\[[0-9;]*m/g, '')));
    const piped = await cli(['channels', 'list-networks'], { env: env() });
    expect(piped.stdout).not.toContain('\x1b[');
  });
});
