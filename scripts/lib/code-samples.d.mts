/** The first call a new user makes, shown on the docs index. */
export declare const FIRST_CALL_SAMPLE: string;
/** The TypeScript sample of one operation of a bundle. */
export declare function codeSample(api: string, doc: unknown, method: string, path: string, operation: unknown, pathItem?: unknown): string;
/** Every operation of a bundle with its sample: `[operationId, source]`. */
export declare function codeSamplesOf(api: string, doc: unknown): [string, string][];
/** The bundle's YAML text with an `x-codeSamples` entry on every operation. */
export declare function withCodeSamples(api: string, yamlText: string, options?: { guideOf?: (helper: string) => { href: string; title: string } | undefined }): string;
/** The helpers an operation's sample shows first. */
export declare function helpersOf(api: string, doc: unknown, method: string, path: string, operation: unknown): string[];
/** One parameter a caller gives an operation, with the spec's example value. */
export interface OperationParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  type: string;
  explode: boolean;
  value: unknown;
  hasExample: boolean;
}
/** Each parameter of an operation (not `Authorization`) and its example body. */
export declare function operationInputs(doc: unknown, operation: unknown, pathItem?: unknown): { parameters: OperationParameter[]; body: unknown };
