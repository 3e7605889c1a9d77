// Requests made from a bundle for the sandbox's fuzz suite: a valid request
// per operation (its examples, else json-schema-faker from its schemas,
// seeded), and invalid variants of it, one broken constraint each (missing
// required, wrong type, pattern/enum/const/format, extra property where
// closed, min/max, length, minItems/maxItems, minProperties, malformed path
// parameter). Values come from fast-check arbitraries, seeded. Whether a
// variant really breaks its spec is settled by an independent validator (Ajv
// over the whole bundle, at run time), not assumed: a mutation that another
// `oneOf` branch accepts is not an invalid variant.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import fc from 'fast-check';
import { generateSync } from 'json-schema-faker';
import { deref, type Bundle, type OperationInfo } from '../contract/support/spec.js';

type Schema = Record<string, any>;

export interface RequestParts {
  path: Record<string, string>;
  query: [string, string][];
  /** `undefined`: no body sent. */
  body: unknown;
}

export interface Variant {
  /** The constraint the variant breaks (`pattern`, `required`, …), or `valid`. */
  kind: string;
  /** Where: `body.transactions[0].to`, `query.limit`, `path.wallet_id`. */
  where: string;
  /** A word the refusal must name: the field or parameter. */
  names: string;
  request: RequestParts;
}

const oracles = new WeakMap<object, Map<boolean, (schema: Schema, value: unknown) => boolean>>();

/** An Ajv over one bundle: `accepts(schema, value)` for any schema of it (its `$ref`s resolve in the bundle); one per bundle. */
export function createOracle(bundle: Bundle, coerce = false): (schema: Schema, value: unknown) => boolean {
  const byCoercion = oracles.get(bundle.doc) ?? new Map<boolean, (schema: Schema, value: unknown) => boolean>();
  oracles.set(bundle.doc, byCoercion);
  let oracle = byCoercion.get(coerce);
  if (oracle === undefined) {
    oracle = makeOracle(bundle, coerce);
    byCoercion.set(coerce, oracle);
  }
  return oracle;
}

function makeOracle(bundle: Bundle, coerce: boolean): (schema: Schema, value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true, coerceTypes: coerce ? 'array' : false });
  ((formats as { default?: unknown }).default ?? formats as any)(ajv);
  const id = `https://fuzz.test/${bundle.api}${coerce ? '/coerced' : ''}`;
  ajv.addSchema(bundle.doc, id);
  const anchored = (node: unknown): unknown =>
    Array.isArray(node)
      ? node.map(anchored)
      : node !== null && typeof node === 'object'
        ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `${id}${v}` : anchored(v)]))
        : node;
  const cache = new Map<unknown, ReturnType<Ajv2020['compile']>>();
  return (schema: Schema, value: unknown): boolean => {
    let validate = cache.get(schema);
    if (validate === undefined) {
      validate = ajv.compile({ type: 'object', properties: { v: anchored(schema) as Schema } });
      cache.set(schema, validate);
    }
    // Wrapped, so coercion has a parent to write to (and the caller's value is not changed).
    return validate({ v: structuredClone(value) }) as boolean;
  };
}

const resolve = (bundle: Bundle, schema: unknown): Schema => deref(bundle, schema).value ?? {};

/** One value from an arbitrary, the same for the same seed. */
function pick<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  return fc.sample(arbitrary, { seed, numRuns: 1 })[0]!;
}

const JSON_TYPES = ['string', 'integer', 'number', 'boolean', 'object', 'array', 'null'] as const;

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function arbitraryOfType(type: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return fc.string({ maxLength: 8 });
    case 'integer':
      return fc.integer({ min: -1000, max: 1000 });
    case 'number':
      return fc.double({ min: -1000, max: 1000, noNaN: true }).filter((n) => !Number.isInteger(n));
    case 'boolean':
      return fc.boolean();
    case 'object':
      return fc.dictionary(fc.string({ minLength: 1, maxLength: 4 }), fc.integer(), { maxKeys: 2 });
    case 'array':
      return fc.array(fc.integer(), { maxLength: 2 });
    default:
      return fc.constant(null);
  }
}

/** The `type`s a schema allows (through `allOf`), or undefined when it says none. */
function declaredTypes(schema: Schema): string[] | undefined {
  if (schema.type !== undefined) return ([] as string[]).concat(schema.type);
  if (schema.enum !== undefined || schema.const !== undefined) return undefined;
  if (schema.properties !== undefined) return ['object'];
  return undefined;
}

interface Mutation {
  kind: string;
  /** Path in the value. */
  at: (string | number)[];
  names: string;
  /** The new value at `at`, or DELETE. */
  value: unknown;
}

const DELETE = Symbol('delete');

/** The schema that governs `value` here: `$ref`s followed, `allOf` merged, the `oneOf`/`anyOf` branch it matches. */
function effective(bundle: Bundle, raw: unknown, value: unknown, accepts: (s: Schema, v: unknown) => boolean): Schema {
  const schema = resolve(bundle, raw);
  let merged: Schema = { ...schema };
  for (const part of schema.allOf ?? []) {
    const inner = effective(bundle, part, value, accepts);
    merged = {
      ...inner,
      ...merged,
      properties: { ...inner.properties, ...merged.properties },
      required: [...(inner.required ?? []), ...(merged.required ?? [])],
    };
  }
  const branches: unknown[] | undefined = schema.oneOf ?? schema.anyOf;
  if (branches !== undefined) {
    const chosen = branches.find((branch) => accepts(branch as Schema, value));
    if (chosen !== undefined) {
      const inner = effective(bundle, chosen, value, accepts);
      merged = { ...inner, ...merged, properties: { ...inner.properties, ...merged.properties }, required: [...(inner.required ?? []), ...(merged.required ?? [])] };
    }
  }
  delete merged.allOf;
  delete merged.oneOf;
  delete merged.anyOf;
  return merged;
}

function lastName(at: readonly (string | number)[], fallback: string): string {
  for (let i = at.length - 1; i >= 0; i--) if (typeof at[i] === 'string') return at[i] as string;
  return fallback;
}

/** Every single-constraint mutation of `value` under `raw`, walking into the fields and items it has. */
function mutations(bundle: Bundle, raw: unknown, value: unknown, at: (string | number)[], seed: number, accepts: (s: Schema, v: unknown) => boolean, root: string): Mutation[] {
  const schema = effective(bundle, raw, value, accepts);
  const name = lastName(at, root);
  const out: Mutation[] = [];
  const types = declaredTypes(schema);
  if (types !== undefined) {
    const other = JSON_TYPES.filter((type) => !types.includes(type) && !(type === 'integer' && types.includes('number')));
    const type = other[seed % other.length]!;
    out.push({ kind: 'type', at, names: name, value: pick(arbitraryOfType(type), seed) });
  }
  if (typeof value === 'string') {
    if (schema.pattern !== undefined) {
      const pattern = new RegExp(schema.pattern, 'u');
      out.push({ kind: 'pattern', at, names: name, value: pick(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !pattern.test(s)), seed) });
    }
    if (schema.enum !== undefined) out.push({ kind: 'enum', at, names: name, value: pick(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => !schema.enum.includes(s)), seed) });
    if (schema.const !== undefined) out.push({ kind: 'const', at, names: name, value: pick(fc.string({ minLength: 1, maxLength: 8 }).filter((s) => s !== schema.const), seed) });
    if (schema.format !== undefined) out.push({ kind: 'format', at, names: name, value: pick(fc.string({ minLength: 1, maxLength: 10 }).map((s) => `not-${schema.format}-${s}`), seed) });
    if (typeof schema.minLength === 'number' && schema.minLength > 0) out.push({ kind: 'minLength', at, names: name, value: value.slice(0, schema.minLength - 1) });
    if (typeof schema.maxLength === 'number') out.push({ kind: 'maxLength', at, names: name, value: value.padEnd(schema.maxLength + 1, value.at(-1) ?? 'a') });
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number') out.push({ kind: 'minimum', at, names: name, value: schema.minimum - 1 });
    if (typeof schema.maximum === 'number') out.push({ kind: 'maximum', at, names: name, value: schema.maximum + 1 });
    if (typeof schema.exclusiveMinimum === 'number') out.push({ kind: 'exclusiveMinimum', at, names: name, value: schema.exclusiveMinimum });
    if (typeof schema.exclusiveMaximum === 'number') out.push({ kind: 'exclusiveMaximum', at, names: name, value: schema.exclusiveMaximum });
  }
  if (Array.isArray(value)) {
    if (typeof schema.minItems === 'number' && schema.minItems > 0) out.push({ kind: 'minItems', at, names: name, value: value.slice(0, schema.minItems - 1) });
    if (typeof schema.maxItems === 'number' && value.length > 0) {
      out.push({ kind: 'maxItems', at, names: name, value: Array.from({ length: schema.maxItems + 1 }, (_, i) => value[i % value.length]) });
    }
    if (value.length > 0 && schema.items !== undefined) out.push(...mutations(bundle, schema.items, value[0], [...at, 0], seed + 1, accepts, root));
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const required of schema.required ?? []) {
      if (required in record) out.push({ kind: 'required', at: [...at, required], names: required, value: DELETE });
    }
    if (typeof schema.minProperties === 'number' && schema.minProperties > 0) out.push({ kind: 'minProperties', at, names: name, value: {} });
    if (schema.additionalProperties === false) {
      const key = pick(fc.stringMatching(/^[a-z]{3,8}$/).map((s) => `extra_${s}`), seed);
      out.push({ kind: 'additionalProperties', at: [...at, key], names: key, value: 1 });
    }
    for (const [key, child] of Object.entries(record)) {
      const childSchema = schema.properties?.[key];
      if (childSchema !== undefined) out.push(...mutations(bundle, childSchema, child, [...at, key], seed + key.length, accepts, root));
    }
  }
  return out;
}

function setAt(root: unknown, at: readonly (string | number)[], value: unknown): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(root) as any;
  let node = copy;
  for (const key of at.slice(0, -1)) node = node[key];
  const last = at.at(-1)!;
  if (value === DELETE) delete node[last];
  else node[last] = value;
  return copy;
}

function describe(root: string, at: readonly (string | number)[]): string {
  return at.reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : `${path}.${key}`), root);
}

/** A value for a schema: its example, else one json-schema-faker makes (seeded). */
function sample(bundle: Bundle, raw: unknown, seed: number, accepts: (s: Schema, v: unknown) => boolean): unknown {
  const schema = resolve(bundle, raw);
  if (schema.example !== undefined && accepts(raw as Schema, schema.example)) return schema.example;
  if (schema.examples?.[0] !== undefined && accepts(raw as Schema, schema.examples[0])) return schema.examples[0];
  for (let attempt = 0; attempt < 5; attempt++) {
    const made = generateSync({ ...(raw as Schema), components: bundle.doc.components } as never, { seed: seed + attempt, maxDepth: 4, optionalsProbability: 0.5, useDefaultValue: false });
    if (accepts(raw as Schema, made)) return made;
  }
  return undefined;
}

function parameterValue(bundle: Bundle, parameter: Schema, seed: number, accepts: (s: Schema, v: unknown) => boolean): unknown {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values<any>(parameter.examples ?? {})[0];
  if (named !== undefined) return deref(bundle, named).value.value;
  return sample(bundle, parameter.schema, seed, accepts);
}

const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** The valid requests of an operation: each named body example (or one made from the schema), with parameters from examples. */
export function validRequests(bundle: Bundle, op: OperationInfo, seed: number): RequestParts[] {
  const accepts = createOracle(bundle);
  const path: Record<string, string> = {};
  const query: [string, string][] = [];
  for (const parameter of op.parameters) {
    if (parameter.in !== 'path' && !(parameter.in === 'query' && parameter.required)) continue;
    const value = parameterValue(bundle, parameter, seed, accepts);
    if (parameter.in === 'path') path[parameter.name] = asText(value);
    else if (Array.isArray(value)) {
      if (parameter.explode === false) query.push([parameter.name, value.map(asText).join(',')]);
      else for (const item of value) query.push([parameter.name, asText(item)]);
    } else query.push([parameter.name, asText(value)]);
  }
  const { value: requestBody } = deref(bundle, op.operation.requestBody);
  const media = requestBody?.content?.['application/json'];
  if (media === undefined) return [{ path, query, body: undefined }];
  const bodies: unknown[] = [];
  for (const example of Object.values<any>(media.examples ?? {})) bodies.push(deref(bundle, example).value.value);
  if (media.example !== undefined) bodies.push(media.example);
  const made = sample(bundle, media.schema, seed, accepts);
  if (made !== undefined) bodies.push(made);
  return bodies.filter((body) => accepts(media.schema, body)).map((body) => ({ path, query, body }));
}

/** The invalid variants of `valid`, each checked to break the spec. */
export function invalidVariants(bundle: Bundle, op: OperationInfo, valid: RequestParts, seed: number): Variant[] {
  const accepts = createOracle(bundle);
  const acceptsText = createOracle(bundle, true);
  const variants: Variant[] = [];
  const { value: requestBody } = deref(bundle, op.operation.requestBody);
  const media = requestBody?.content?.['application/json'];
  if (media !== undefined && valid.body !== undefined) {
    for (const mutation of mutations(bundle, media.schema, valid.body, [], seed, accepts, 'body')) {
      const body = setAt(valid.body, mutation.at, mutation.value);
      if (accepts(media.schema, body)) continue;
      variants.push({ kind: mutation.kind, where: describe('body', mutation.at), names: mutation.names, request: { ...valid, body } });
    }
    if (requestBody.required === true) variants.push({ kind: 'required', where: 'body', names: 'body', request: { ...valid, body: undefined } });
  }
  for (const parameter of op.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const schema = resolve(bundle, parameter.schema);
    const candidates: { kind: string; text: string }[] = [];
    const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u');
    if (pattern !== undefined) candidates.push({ kind: 'pattern', text: pick(fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !pattern.test(s) && !s.includes('/')), seed) });
    if (schema.format !== undefined) candidates.push({ kind: 'format', text: `not-${schema.format}-${pick(fc.stringMatching(/^[a-z]{1,6}$/), seed)}` });
    if (schema.enum !== undefined) candidates.push({ kind: 'enum', text: pick(fc.stringMatching(/^[a-z]{1,8}$/).filter((s) => !schema.enum.includes(s)), seed) });
    if (schema.type === 'integer' || schema.type === 'number') candidates.push({ kind: 'type', text: pick(fc.stringMatching(/^[a-z]{1,6}$/), seed) });
    if (schema.type === 'boolean') candidates.push({ kind: 'type', text: pick(fc.stringMatching(/^[a-z]{1,6}$/).filter((s) => s !== 'true' && s !== 'false'), seed) });
    if (typeof schema.minimum === 'number') candidates.push({ kind: 'minimum', text: String(schema.minimum - 1) });
    if (typeof schema.maximum === 'number') candidates.push({ kind: 'maximum', text: String(schema.maximum + 1) });
    if (typeof schema.minLength === 'number' && schema.minLength > 0) candidates.push({ kind: 'minLength', text: 'x'.repeat(schema.minLength - 1) });
    if (typeof schema.maxLength === 'number') candidates.push({ kind: 'maxLength', text: 'x'.repeat(schema.maxLength + 1) });
    for (const { kind, text } of candidates) {
      if (acceptsText(parameter.schema, text)) continue;
      if (parameter.in === 'path') {
        if (text === '') continue;
        variants.push({ kind, where: `path.${parameter.name}`, names: parameter.name, request: { ...valid, path: { ...valid.path, [parameter.name]: text } } });
      } else {
        const query = valid.query.filter(([name]) => name !== parameter.name);
        variants.push({ kind, where: `query.${parameter.name}`, names: parameter.name, request: { ...valid, query: [...query, [parameter.name, text]] } });
      }
    }
    if (parameter.in === 'query' && parameter.required) {
      variants.push({ kind: 'required', where: `query.${parameter.name}`, names: parameter.name, request: { ...valid, query: valid.query.filter(([name]) => name !== parameter.name) } });
    }
  }
  return variants;
}
