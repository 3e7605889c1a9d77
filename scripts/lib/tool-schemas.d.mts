/** The module text of generated/tool-schemas/<api>.ts: every operation's JSON body schema (JSON Schema 2020-12, with its `$defs`), by operationId. */
export declare function toolSchemasModule(api: string, document: Record<string, unknown>): string;
