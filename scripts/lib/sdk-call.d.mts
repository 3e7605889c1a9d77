/** The organisation's address the channels samples show. */
export declare const CHANNELS_SAMPLE_BASE_URL: string;
/** The channels client as the README makes it, with `baseUrl`. */
export declare const CHANNELS_CLIENT: string;
/** How each API's client is made and reached in a sample. */
export declare const CLIENTS: Record<string, { entry: string; create: string; factory: string; call: string }>;
/** A single-quoted TypeScript string literal. */
export declare function quote(text: string): string;
/** The sample that makes one request with the SDK. */
export declare function sdkCallSample(
  api: string,
  method: string,
  path: string,
  init?: { params?: Record<string, Record<string, unknown> | undefined>; body?: unknown },
): string;
