// Starts and stops Prism mock servers, one per bundled document. Shared by the
// contract tests' global setup, `npm start` and the benchmarks.
//
// Prism runs as its own process group (detached) so that stopping the group
// also stops anything it forked; killing only an npx/npm parent would leave
// Prism running.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const prismBin = join(root, 'node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js');

export const API_NAMES = ['channels', 'streams', 'policy-coordinator', 'policy-evaluation', 'policy-reporting'];

/**
 * `count` distinct free TCP ports on 127.0.0.1, chosen by the OS. All are held
 * open until every one is chosen, so the OS cannot hand the same port twice.
 */
export async function freePorts(count) {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise((resolveServer, reject) => {
          const server = createServer();
          server.unref();
          server.on('error', reject);
          server.listen(0, '127.0.0.1', () => resolveServer(server));
        }),
    ),
  );
  const ports = servers.map((server) => server.address().port);
  await Promise.all(servers.map((server) => new Promise((r) => server.close(r))));
  return ports;
}

/** One free TCP port on 127.0.0.1. */
export async function freePort() {
  const [port] = await freePorts(1);
  return port;
}

/**
 * Resolves once this Prism says it listens on `url`, its own "Prism is
 * listening on <url>" line (logged at `info`). Probing the port instead can
 * be fooled: another process may have taken the port between our choosing it
 * and Prism binding it, and then answers in its place. Rejects if Prism exits
 * first (e.g. EADDRINUSE) or takes longer than `timeoutMs`.
 */
function waitUntilListening(url, child, timeoutMs) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const finish = (error) => {
      clearTimeout(timer);
      child.stdout.off('data', onData);
      child.off('exit', onExit);
      if (error) reject(error);
      else resolve();
    };
    const onData = (chunk) => {
      // Keep only enough text to find the line across chunk boundaries.
      seen = (seen + String(chunk)).slice(-4096);
      if (seen.includes(`Prism is listening on ${url}`)) finish();
    };
    const onExit = (code) => finish(new Error(`Prism for ${url} exited with code ${code} before listening`));
    const timer = setTimeout(() => finish(new Error(`Prism at ${url} did not listen within ${timeoutMs} ms`)), timeoutMs);
    child.stdout.on('data', onData);
    child.once('exit', onExit);
  });
}

/**
 * Starts one Prism per API. Resolves with `{ urls: {api: baseUrl}, stop() }`.
 * `errors: true` makes Prism answer a request or response that breaks the
 * spec with an error instead of letting it through. With `upstreams` (a URL
 * per API), Prism runs as a validating proxy to that server instead of a
 * mock, and reports what breaks the spec in each answer's `sl-violations`
 * header.
 */
export async function startPrismMocks({ apis = API_NAMES, errors = true, upstreams = undefined, timeoutMs = 60_000, log = undefined } = {}) {
  const children = [];
  const stop = () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    }
  };
  // If our own process ends abruptly, take the mocks down with it.
  process.once('exit', stop);
  // Another process can take a port between our choosing it and Prism binding
  // it; our Prism then exits before listening, and is started again on
  // another port.
  const startOne = async (api, port, attemptsLeft) => {
    // `info` is the level of Prism's "listening" line (and of one line per request).
    const document = join(root, 'generated', 'openapi', `${api}.yaml`);
    const upstream = upstreams?.[api];
    const command = upstream === undefined ? ['mock', document] : ['proxy', document, upstream];
    const args = [prismBin, ...command, '-h', '127.0.0.1', '-p', String(port), '-v', 'info'];
    if (errors) args.push('--errors');
    const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const tail = [];
    const keep = (chunk) => {
      tail.push(String(chunk));
      if (tail.length > 50) tail.shift();
      log?.(api, String(chunk));
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const url = `http://127.0.0.1:${port}`;
    try {
      await waitUntilListening(url, child, timeoutMs);
      return [api, url];
    } catch (error) {
      if (attemptsLeft > 0 && child.exitCode !== null) return startOne(api, await freePort(), attemptsLeft - 1);
      error.message += `\n${tail.join('').slice(-2000)}`;
      throw error;
    }
  };
  try {
    const ports = await freePorts(apis.length);
    const entries = await Promise.all(apis.map((api, i) => startOne(api, ports[i], 3)));
    return { urls: Object.fromEntries(entries), stop, pids: children.map((c) => c.pid) };
  } catch (error) {
    stop();
    throw error;
  }
}

/** Stops the mocks and waits until every process group is gone. */
export async function stopPrismMocks(mocks, timeoutMs = 5_000) {
  mocks.stop();
  const deadline = Date.now() + timeoutMs;
  const alive = (pid) => {
    try {
      process.kill(-pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (mocks.pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  for (const pid of mocks.pids.filter(alive)) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}
