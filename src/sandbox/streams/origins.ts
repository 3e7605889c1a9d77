/**
 * The origins of the sandbox's WebSocket host and which of them are up: what
 * `HEAD /` lists, and where the live socket server accepts connections. A
 * test drops and restores them (`sandbox.streamOrigins`).
 */
export interface StreamOrigins {
  /** Every origin the host has. */
  readonly all: readonly string[];
  /** The origins that are up, in order. */
  up(): string[];
  isUp(origin: string): boolean;
  /** Marks the origin down; `onDrop` listeners close its connections. */
  drop(origin: string): void;
  restore(origin: string): void;
  /** Called with the origin each time one is dropped. */
  onDrop(listener: (origin: string) => void): void;
  /** Everything up again (a sandbox reset). */
  restoreAll(): void;
}

export function createStreamOrigins(all: readonly string[]): StreamOrigins {
  const down = new Set<string>();
  const listeners: ((origin: string) => void)[] = [];
  const known = (origin: string) => {
    if (!all.includes(origin)) throw new RangeError(`no origin ${JSON.stringify(origin)}; the origins are ${all.join(', ')}`);
  };
  return {
    all,
    up: () => all.filter((origin) => !down.has(origin)),
    isUp: (origin) => all.includes(origin) && !down.has(origin),
    drop(origin) {
      known(origin);
      down.add(origin);
      for (const listener of listeners) listener(origin);
    },
    restore(origin) {
      known(origin);
      down.delete(origin);
    },
    onDrop(listener) {
      listeners.push(listener);
    },
    restoreAll() {
      down.clear();
    },
  };
}
