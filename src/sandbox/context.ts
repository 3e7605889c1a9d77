import type { SandboxClock } from './clock.js';
import type { StreamOrigins } from './streams/origins.js';

/** The credentials the sandbox accepts, and only these. */
export interface SandboxCredentials {
  channels: { apiKey: string };
  streams: { apiKey: string; apiSecret: string };
  policy: { apiKey: string };
}

/** What every API behaviour is built with. */
export interface BehaviourContext {
  readonly clock: SandboxClock;
  readonly credentials: SandboxCredentials;
  /** A fresh UUID (v4). */
  newId(): string;
  /** The streams API's WebSocket origins and which are up. */
  readonly streamOrigins: StreamOrigins;
}
