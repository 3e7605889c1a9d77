// The status enums of a bundle that carry `x-status-kinds` (see openapi/README.md,
// "Statuses"): each value's kind, read once here for the generator (which types
// those enums open and writes STATUS_KINDS), the changelog (which says whether a
// new status is final) and spec:bump (which lists the values with no kind).

export const STATUS_KINDS_KEY = 'x-status-kinds';

/** What a status means to a wait: it can still change, or it is final and the goal was or was not reached. */
export const STATUS_KINDS = ['in_progress', 'succeeded', 'failed'];

/**
 * Every schema under `components.schemas` of `document` with `x-status-kinds`:
 * its name, its enum values, their kinds, and the values with no kind. Throws
 * on a kind outside STATUS_KINDS or a kind given to a value the enum lacks
 * (a typo in the spec, not a value still to classify).
 */
export function statusEnums(document) {
  return Object.entries(document.components?.schemas ?? {})
    .filter(([, schema]) => schema?.[STATUS_KINDS_KEY] !== undefined)
    .map(([name, schema]) => {
      const values = schema.enum;
      const kinds = schema[STATUS_KINDS_KEY];
      if (!Array.isArray(values) || values.some((value) => typeof value !== 'string')) {
        throw new Error(`${name}: ${STATUS_KINDS_KEY} is for an enum of strings`);
      }
      for (const [value, kind] of Object.entries(kinds)) {
        if (!values.includes(value)) throw new Error(`${name}: ${STATUS_KINDS_KEY} names \`${value}\`, which is not in its enum`);
        if (!STATUS_KINDS.includes(kind)) throw new Error(`${name}: the kind of \`${value}\` is \`${kind}\`; expected one of ${STATUS_KINDS.join(', ')}`);
      }
      return { name, values, kinds, unclassified: values.filter((value) => !(value in kinds)) };
    });
}

/**
 * The `openEnums` interface appended to generated/types/<api>.ts: each status
 * enum open, its documented values or any other string, so a `switch` over it
 * needs a `default` (the service may add a status before the SDK knows it).
 * Beside `components`, not in it: openapi-fetch maps every type of an answer
 * that is an object (and `string & {}` is one to TypeScript) into an object
 * type, so an open member inside `components` would reach `client.GET`'s
 * `data` as an object. The SDK's helpers type their statuses with these.
 */
export function openEnumsInterface(document) {
  const enums = statusEnums(document);
  if (enums.length === 0) return '';
  const rows = enums.map(({ name }) => `    ${name}: components["schemas"]["${name}"] | (string & {});`);
  return (
    `\n/**\n` +
    ` * The status enums the service may extend (\`${STATUS_KINDS_KEY}\` in the spec), open: a documented value\n` +
    ` * or any other string, so a \`switch\` over one needs a \`default\`.\n` +
    ` */\n` +
    `export interface openEnums {\n${rows.join('\n')}\n}\n`
  );
}

/** The `STATUS_KINDS` table of generated/operations/<api>.ts (each status enum's values and their kinds, as given), or nothing when the API has no status enum. */
export function statusKindsTable(document) {
  const enums = statusEnums(document);
  if (enums.length === 0) return '';
  const rows = enums.map(
    ({ name, values, kinds }) =>
      `  ${name}: {\n${values.filter((value) => value in kinds).map((value) => `    ${value}: '${kinds[value]}',`).join('\n')}\n  },`,
  );
  return (
    `\n/**\n` +
    ` * The kind of each value of the status enums the waits read (\`${STATUS_KINDS_KEY}\` in the spec):\n` +
    ` * \`in_progress\`, or final, \`succeeded\` or \`failed\`. A value with no kind is absent here, which\n` +
    ` * the waits' \`Record<…, StatusKind>\` turns into a type error.\n` +
    ` */\n` +
    `export const STATUS_KINDS = {\n${rows.join('\n')}\n} as const;\n`
  );
}

const KIND_WORDS = {
  in_progress: 'is not final: a wait reads on through it',
  succeeded: 'is final: a wait for it ends there, done',
  failed: 'is final: a wait ends there with a failure',
};

/**
 * The changelog's word on new status values: for a change that adds values to
 * a status enum of `document` (a `gained values: 'a', 'b'.` message on the
 * enum's field), the sentence saying whether each is final, or that it has no
 * kind yet. `undefined` for any other change.
 */
export function newStatusNote(document, change) {
  const name = /^`(\w+)`$/.exec(change.field ?? '')?.[1];
  const gained = /gained values?: (.+)\.$/.exec(change.message ?? '')?.[1];
  const status = name === undefined || gained === undefined ? undefined : statusEnums(document).find((candidate) => candidate.name === name);
  if (status === undefined) return undefined;
  const values = [...gained.matchAll(/'([^']+)'/g)].map((match) => match[1]);
  return values
    .map((value) => `\`${value}\` ${value in status.kinds ? KIND_WORDS[status.kinds[value]] : `has no kind yet (${STATUS_KINDS_KEY})`}.`)
    .join(' ');
}
