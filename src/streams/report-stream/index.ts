export { streamReports, type ReportStream, type ReportStreamStats } from './stream.js';
export {
  STREAMS_WS_URLS,
  type OverflowPolicy,
  type ReconnectOptions,
  type ReportStreamEvent,
  type ReportStreamOptions,
} from './options.js';
export {
  ReportStreamAuthError,
  ReportStreamConnectionError,
  ReportStreamMessageError,
  ReportStreamOverflowError,
  ReportStreamUnsupportedError,
  type ReportStreamMessageProblem,
} from './errors.js';
export type { WebSocketConstructor } from './websocket.js';
export type { ReportStreamMessage } from './message.js';
