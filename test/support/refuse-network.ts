/**
 * Every connection this process opens to a host other than the loopback is
 * refused and recorded, for tests that claim nothing leaves the machine:
 * `net.Socket#connect` (under `node:http`, `ws`, undici's `fetch` and TLS)
 * fails such a socket on the next turn instead of looking the host up.
 */
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export interface RefusedNetwork {
  /** `host:port` of every refused attempt, in order. */
  readonly attempts: readonly string[];
  restore(): void;
}

export function refuseNonLoopback(): RefusedNetwork {
  const attempts: string[] = [];
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0] as { host?: string; port?: number; path?: string } | number | string | unknown[];
    // connect(options), connect(port, host), connect(path); internally also connect([options, callback]).
    const options = Array.isArray(first) ? (first[0] as { host?: string; port?: number; path?: string }) : first;
    const host = typeof options === 'object' && options !== null ? options.host ?? (options.path === undefined ? 'localhost' : undefined) : typeof options === 'number' ? (args[1] as string | undefined) ?? 'localhost' : undefined;
    if (host !== undefined && !LOOPBACK.test(host.replace(/^\[|\]$/g, ''))) {
      const port = typeof options === 'object' && options !== null ? options.port : options;
      attempts.push(`${host}:${String(port)}`);
      process.nextTick(() => this.destroy(new Error(`connection to ${host} refused: this test allows the loopback only`)));
      return this;
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  return {
    attempts,
    restore() {
      net.Socket.prototype.connect = original;
    },
  };
}
