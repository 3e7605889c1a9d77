import type { OperationParameter } from '../lib/code-samples.mjs';
/** One operation as the "Try it" console runs it. */
export interface ConsoleOperation {
  id: string;
  method: string;
  path: string;
  summary: string;
  baseUrl: string;
  parameters: (Omit<OperationParameter, 'hasExample' | 'value'> & { value: unknown; example: unknown })[];
  body: unknown;
  sample: string | undefined;
}
/** The console's data for one API's page: the operations it can run and whose sandbox credentials sign them. */
export declare function consoleData(api: string, doc: unknown): {
  api: string;
  auth: { scheme: 'hmac'; credentials: 'streams' } | { scheme: 'apikey'; credentials: 'channels' | 'policy' };
  operations: ConsoleOperation[];
};
