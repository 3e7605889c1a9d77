/** The module text (TypeScript, Ajv standalone code) of one API's request checks, from its bundle. */
export declare function requestChecksModule(api: string, document: Record<string, unknown>): string;

export interface CheckedOperation {
  operationId: string;
  method: string;
  path: string;
  parameters: Record<string, unknown>[];
  bodyPointer: string | undefined;
  bodyRequired: boolean;
  refusals: number[];
}

/** The operations of a bundle with their parameters, body schema pointer and documented 4xx statuses. */
export declare function operationsOf(document: Record<string, unknown>): CheckedOperation[];
