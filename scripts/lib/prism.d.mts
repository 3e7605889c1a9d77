export declare const API_NAMES: readonly string[];
export interface PrismMocks {
  /** Base URL of each API's mock, by API name. */
  urls: Record<string, string>;
  pids: number[];
  /** Sends SIGTERM to every mock's process group. */
  stop(): void;
}
export declare function freePort(): Promise<number>;
export declare function freePorts(count: number): Promise<number[]>;
export declare function startPrismMocks(options?: {
  apis?: readonly string[];
  errors?: boolean;
  /** Run each API's Prism as a validating proxy to this URL instead of a mock. */
  upstreams?: Record<string, string>;
  timeoutMs?: number;
  log?: (api: string, line: string) => void;
}): Promise<PrismMocks>;
export declare function stopPrismMocks(mocks: PrismMocks, timeoutMs?: number): Promise<void>;
