export { createSandbox, type Sandbox, type SandboxOptions, type AnswerValidator, type Violation } from './sandbox.js';
export type { SandboxCredentials } from './context.js';
export type { FaultSpec } from './faults.js';
export type { SandboxSeed, ChannelsSeed, SeedWallet, SeedChannel } from './seed.js';
export type { ListenOptions, SandboxListener, SandboxBaseUrls } from './listen.js';
export type { SandboxClock } from './clock.js';
export type { SandboxApi } from './types.js';
export { SandboxViolationError, SandboxUsageError } from './errors.js';
export { SdkError } from '../core/errors.js';
