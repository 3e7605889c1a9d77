// A bundle whose object schemas admit only the properties they name: every
// object schema without an `additionalProperties` of its own gets
// `unevaluatedProperties: false`, which sees through `$ref`, `allOf` and the
// matching `oneOf`/`anyOf` branch. The members of an `allOf` stay open (their
// parent closes the whole), and so do component schemas used as one; an
// explicit `additionalProperties` (free-form `metadata`, maps) is kept as
// written. Validating the sandbox's answers against it finds any field an
// answer carries that its schema does not name.
import type { Bundle } from '../contract/support/spec.js';

type Schema = Record<string, unknown>;

const COMBINATORS = ['allOf', 'oneOf', 'anyOf'] as const;

function isObjectSchema(schema: Schema): boolean {
  return schema.type === 'object' || schema.properties !== undefined || COMBINATORS.some((key) => Array.isArray(schema[key]));
}

/** `#/components/schemas/X` pointers used as `allOf` members anywhere in the document. */
function allOfMembers(node: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => allOfMembers(item, found));
  else if (node !== null && typeof node === 'object') {
    const record = node as Schema;
    if (Array.isArray(record.allOf)) {
      for (const member of record.allOf as Schema[]) if (typeof member.$ref === 'string') found.add(member.$ref);
    }
    Object.values(record).forEach((value) => allOfMembers(value, found));
  }
  return found;
}

function close(node: unknown, open: boolean, keepOpen: ReadonlySet<string>, pointer: string): unknown {
  if (Array.isArray(node)) return node.map((item, index) => close(item, false, keepOpen, `${pointer}/${index}`));
  if (node === null || typeof node !== 'object') return node;
  const schema = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'allOf' && Array.isArray(value)) {
      out[key] = value.map((member, index) => close(member, true, keepOpen, `${pointer}/${key}/${index}`));
    } else if (key === 'example' || key === 'examples') {
      out[key] = value;
    } else {
      out[key] = close(value, false, keepOpen, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  }
  const isSchema = pointer.includes('/schema') || pointer.includes('/components/schemas/');
  if (isSchema && !open && !keepOpen.has(`#${pointer}`) && isObjectSchema(schema) && schema.additionalProperties === undefined && schema.unevaluatedProperties === undefined) {
    out.unevaluatedProperties = false;
  }
  return out;
}

/** `bundle` with its object schemas closed (see above). */
export function closedBundle(bundle: Bundle): Bundle {
  return { api: bundle.api, doc: close(bundle.doc, false, allOfMembers(bundle.doc), '') as Bundle['doc'] };
}
