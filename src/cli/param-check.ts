/**
 * A flag's text checked against its parameter's schema, before any request:
 * type, enum, pattern, format (uuid, date-time), bounds. The error names the
 * flag and what the spec expects.
 */
import { CliUsageError } from './errors.js';
import type { CliParam, ParamSchema } from './spec-table.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// RFC 3339 date-time, as the specs' `format: date-time` means it.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/** The expected form of a value, for help and errors: `integer ≥ 1`, `one of a|b`, `uuid`. */
export function describeSchema(schema: ParamSchema): string {
  if (schema.type === 'array') return `list of ${describeSchema(schema.items ?? { type: 'string' })}, comma-separated or repeated`;
  if (schema.enum) return `one of ${schema.enum.join('|')}`;
  const bounds = [
    schema.minimum !== undefined ? `≥ ${schema.minimum}` : '',
    schema.maximum !== undefined ? `≤ ${schema.maximum}` : '',
  ].filter(Boolean);
  const base = schema.format && schema.type === 'string' ? schema.format : schema.type;
  const pattern = schema.pattern && !schema.format ? ` matching ${schema.pattern}` : '';
  return `${base}${bounds.length ? ` ${bounds.join(' ')}` : ''}${pattern}`;
}

function invalid(label: string, raw: string, schema: ParamSchema): never {
  throw new CliUsageError(label.startsWith('--') ? `${label}: expected ${describeSchema(schema)}, got ${JSON.stringify(raw)}` : `${label}: expected ${describeSchema(schema)}`);
}

function checkScalar(label: string, raw: string, schema: ParamSchema): string | number | boolean {
  switch (schema.type) {
    case 'integer':
    case 'number': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || (schema.type === 'integer' && !Number.isInteger(value))) invalid(label, raw, schema);
      if ((schema.minimum !== undefined && value < schema.minimum) || (schema.maximum !== undefined && value > schema.maximum)) invalid(label, raw, schema);
      if (schema.enum && !schema.enum.includes(value)) invalid(label, raw, schema);
      return value;
    }
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      return invalid(label, raw, schema);
    default: {
      if (schema.enum && !schema.enum.includes(raw)) invalid(label, raw, schema);
      if (schema.format === 'uuid' && !UUID.test(raw)) invalid(label, raw, schema);
      if (schema.format === 'date-time' && (!DATE_TIME.test(raw) || Number.isNaN(Date.parse(raw)))) invalid(label, raw, schema);
      if (schema.pattern && !new RegExp(schema.pattern).test(raw)) invalid(label, raw, schema);
      if ((schema.minLength !== undefined && raw.length < schema.minLength) || (schema.maxLength !== undefined && raw.length > schema.maxLength)) {
        throw new CliUsageError(`${label}: expected ${schema.minLength ?? 0} to ${schema.maxLength ?? '∞'} characters, got ${raw.length}`);
      }
      return raw;
    }
  }
}

/**
 * The typed value of `param` from the texts given for it (several for a
 * repeated list flag); `label` is how the user gave it, for errors (its flag
 * by default).
 */
export function checkParam(param: CliParam, texts: readonly string[], label = `--${param.flag}`): unknown {
  if (param.schema.type === 'array') {
    const items = param.schema.items ?? { type: 'string' as const };
    return texts.flatMap((text) => text.split(',')).map((raw) => checkScalar(label, raw, items));
  }
  if (texts.length > 1) throw new CliUsageError(`${label}: given ${texts.length} times, expected once`);
  return checkScalar(label, texts[0]!, param.schema);
}
