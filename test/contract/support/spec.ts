import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

/** One bundled document, read once per test file. */
export interface Bundle {
  api: string;
  doc: Record<string, any>;
}

const root = join(import.meta.dirname, '..', '..', '..');
/** The methods the contract tests exercise through Prism. */
const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
/** Every method a spec may use (the streams API documents `HEAD /`). */
export const ALL_HTTP_METHODS = [...HTTP_METHODS, 'head'] as const;

export function loadBundle(api: string): Bundle {
  return { api, doc: parse(readFileSync(join(root, 'generated', 'openapi', `${api}.yaml`), 'utf8')) };
}

/** Follows a local `$ref` (`#/components/...`) until the object it names. */
export function deref<T = any>(bundle: Bundle, node: any): { value: T; pointer: string | undefined } {
  let pointer: string | undefined;
  while (node && typeof node === 'object' && typeof node.$ref === 'string') {
    pointer = node.$ref.slice(1);
    node = pointer!
      .split('/')
      .slice(1)
      .reduce((at: any, key: string) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], bundle.doc);
  }
  return { value: node as T, pointer };
}

export interface OperationInfo {
  operationId: string;
  method: (typeof ALL_HTTP_METHODS)[number];
  path: string;
  operation: any;
  parameters: any[];
  /** JSON pointer of the operation in the bundle. */
  pointer: string;
}

const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

export function operationsOf(bundle: Bundle, methods: readonly OperationInfo['method'][] = HTTP_METHODS): OperationInfo[] {
  const all: OperationInfo[] = [];
  for (const [path, item] of Object.entries<any>(bundle.doc.paths)) {
    for (const method of methods) {
      const operation = item[method];
      if (!operation) continue;
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(bundle, p).value);
      all.push({ operationId: operation.operationId, method, path, operation, parameters, pointer: `/paths/${escape(path)}/${method}` });
    }
  }
  return all;
}

export interface DocumentedResponse {
  status: string;
  /** Pointer to the JSON schema of the body, for the validator. */
  schemaPointer: string | undefined;
  examples: Record<string, any>;
}

export function responsesOf(bundle: Bundle, op: OperationInfo): DocumentedResponse[] {
  return Object.entries<any>(op.operation.responses).map(([status, raw]) => {
    const { value: response, pointer } = deref(bundle, raw);
    const base = pointer ?? `${op.pointer}/responses/${status}`;
    const media = response.content?.['application/json'];
    const examples = Object.fromEntries(
      Object.entries<any>(media?.examples ?? {}).map(([name, ex]) => [name, deref(bundle, ex).value]),
    );
    return { status, schemaPointer: media?.schema ? `${base}/content/application~1json/schema` : undefined, examples };
  });
}

/** A value for a parameter: its example, else one made from its schema. */
export function sampleParameter(bundle: Bundle, parameter: any): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values<any>(parameter.examples ?? {})[0];
  if (named) return deref(bundle, named).value.value;
  return sampleFromSchema(bundle, parameter.schema);
}

export function sampleFromSchema(bundle: Bundle, raw: any): unknown {
  const schema = deref(bundle, raw).value;
  if (!schema) return 'x';
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.allOf) return sampleFromSchema(bundle, schema.allOf[0]);
  if (schema.oneOf || schema.anyOf) return sampleFromSchema(bundle, (schema.oneOf ?? schema.anyOf)[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t: string) => t !== 'null') : schema.type;
  switch (type) {
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array':
      return [sampleFromSchema(bundle, schema.items)];
    case 'object':
      return {};
    default:
      if (schema.format === 'uuid') return '3fa85f64-5717-4562-b3fc-2c963f66afa6';
      if (schema.format === 'date-time') return '2026-01-01T00:00:00Z';
      return 'x';
  }
}

/** The named request-body examples of an operation (empty when it takes no body). */
export function requestExamples(bundle: Bundle, op: OperationInfo): Record<string, unknown> {
  const { value: body } = deref(bundle, op.operation.requestBody);
  const media = body?.content?.['application/json'];
  if (!media) return {};
  const named = Object.fromEntries(
    Object.entries<any>(media.examples ?? {}).map(([name, ex]) => [name, deref(bundle, ex).value.value]),
  );
  if (Object.keys(named).length > 0) return named;
  if (media.example !== undefined) return { example: media.example };
  return { fromSchema: sampleFromSchema(bundle, media.schema) };
}
