/**
 * The modules (TypeScript, Ajv standalone code) of one API's request checks, from its bundle, by file name:
 * `<name>.ts` (exports `requestChecks`), `<name>.parameters.ts`, `<name>.bodies.ts`; `name` is the API's by default.
 * They import `./runtime.js`, the text of `requestChecksRuntime()`, which must be written beside them.
 */
export declare function requestChecksModules(api: string, document: Record<string, unknown>, name?: string): Record<string, string>;

/** The module text of `runtime.ts`: Ajv's run-time helpers and ajv-formats' formats, bundled from `root`'s node_modules. */
export declare function requestChecksRuntime(root: string): string;

export interface CheckedOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: Record<string, unknown>[];
  bodyPointer: string | undefined;
  bodySchema: Record<string, unknown> | undefined;
  bodyRequired: boolean;
  refusals: number[];
}

/** The operations of a bundle with their parameters, body schema (and its pointer) and documented 4xx statuses. */
export declare function operationsOf(document: Record<string, unknown>): CheckedOperation[];
