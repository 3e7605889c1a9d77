import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import type { Bundle } from './spec.js';

/**
 * A JSON Schema 2020-12 validator over one bundle: the whole document is added
 * under an id, and each response schema is compiled by its JSON pointer, so
 * `$ref`s into `components` resolve as in the spec. OpenAPI-only keywords
 * (discriminator, example, xml) are ignored, not guessed at.
 */
export function createValidator(bundle: Bundle) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  // ajv-formats is CommonJS: its default export arrives wrapped under ESM.
  const addFormats = ((formats as { default?: unknown }).default ?? formats) as (ajv: Ajv2020) => void;
  addFormats(ajv);
  const id = `https://contract.test/${bundle.api}`;
  ajv.addSchema(bundle.doc, id);
  return (schemaPointer: string, data: unknown): string[] => {
    const validate = ajv.getSchema(`${id}#${schemaPointer}`);
    if (!validate) throw new Error(`no schema at ${schemaPointer}`);
    if (validate(data)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`);
  };
}
