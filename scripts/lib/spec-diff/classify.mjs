// Turns redocly's diff report into the changes our users read, one record per
// change, with a category for the changelog and the version bump it needs.
//
// Redocly's verdicts decide what is breaking (they already cover our list:
// operation removed, request enum value removed, parameter or request field
// made required or added required, response field removed or made optional).
// Our rules, below, only adjust what Redocly rates differently from what our
// users need.
import { at, fieldName, operationLabel, operationsAt, segments, toPointer, usageIndex, usersOf } from './pointer.mjs';

/** Changelog sections, most urgent first. */
export const CATEGORIES = ['breaking', 'dangerous', 'deprecated', 'removed', 'added', 'changed'];
const DOC_PROPERTIES = new Set(['description', 'summary', 'title', 'example', 'examples', 'externalDocs']);

/**
 * Our rules. Each looks at one Redocly change and returns an override, or
 * undefined when it does not apply. Redocly already knows whether a schema
 * is used by a request or a response (its verdicts depend on it), so the
 * rules read its verdicts rather than redo that analysis.
 */
export const RULES = {
  /**
   * A value added to an enum a response uses. Redocly rates it major
   * (`enum-values-added`). It does not break a request or a field read; it
   * breaks an exhaustive `switch` over the field once the user regenerates,
   * and the service ships such values in minor versions. So: dangerous, at
   * least a minor bump, and a line in the changelog's "Dangerous".
   */
  'response-enum-value-added'(change) {
    if (!change.verdicts.some((v) => v.ruleId === 'enum-values-added')) return undefined;
    return { category: 'dangerous', dropVerdicts: ['enum-values-added'] };
  },
  /**
   * A new `oneOf`/`anyOf` variant of a response schema (e.g. a new event
   * kind). Redocly rates it major (`schema-combinator-changed`, which fires
   * for an added variant only where a response uses the schema); for users
   * it is the same hazard as a new enum value, so the same verdict.
   */
  'response-variant-added'(change) {
    const combinator = segments(change.path).at(-2);
    if (change.kind !== 'added' || (combinator !== 'oneOf' && combinator !== 'anyOf')) return undefined;
    if (!change.verdicts.some((v) => v.ruleId === 'schema-combinator-changed')) return undefined;
    return { category: 'dangerous', dropVerdicts: ['schema-combinator-changed'] };
  },
  /**
   * `deprecated: true`. Redocly records it as a patch change with no
   * verdict; users need to see it (the types carry `@deprecated` too).
   */
  deprecated(change) {
    if (change.kind !== 'modified' || change.property !== 'deprecated' || change.revision?.value !== true) return undefined;
    return { category: 'deprecated', message: 'Deprecated.' };
  },
};

/**
 * Classifies every change of a redocly diff report. Left out: `info.version`
 * itself, and components Redocly reports as added on their own (it reports a
 * component at its first use when an existing operation uses it, so one
 * reported under #/components only serves new operations, already listed).
 */
export function classify(report, baseDocument, revisionDocument) {
  const sides = {
    base: { document: baseDocument, index: usageIndex(baseDocument), file: report.files?.base },
    revision: { document: revisionDocument, index: usageIndex(revisionDocument), file: report.files?.revision },
  };
  return report.changes
    .filter((change) => !(change.path === '#/info' && change.property === 'version'))
    .filter((change) => !(change.kind === 'added' && change.path.startsWith('#/components/')))
    .map((change) => classifyChange(change, sides));
}

function classifyChange(change, sides) {
  const verdict = change.verdicts[0];
  // Where the change is, in which document: verdicts point at the component
  // itself (the most precise place); otherwise the changed node.
  const side =
    verdict?.location?.file === undefined
      ? change.kind === 'removed' ? sides.base : sides.revision
      : verdict.location.file === sides.base.file ? sides.base : sides.revision;
  const pointer = verdict?.location?.pointer ?? (change.kind === 'removed' ? change.base?.pointer : change.revision?.pointer) ?? change.path;
  const users = usersOf(side.document, side.index, pointer);

  let override;
  let rule;
  for (const [name, apply] of Object.entries(RULES)) {
    override = apply(change);
    if (override) {
      rule = name;
      break;
    }
  }
  const verdicts = change.verdicts.filter((v) => !override?.dropVerdicts?.includes(v.ruleId));
  const major = verdicts.some((v) => v.impact === 'major');

  let category;
  if (major) category = 'breaking';
  else if (override) category = override.category;
  else if (change.kind === 'removed') category = 'removed';
  else if (change.kind === 'added') category = 'added';
  else category = 'changed';

  // The bump the change needs: major if breaking, a minor if dangerous (a
  // client pinned to a minor must not meet it), else Redocly's.
  const impact = major ? 'major' : category === 'dangerous' ? 'minor' : change.impact;

  const operations = operationsOf(change, users, sides);
  return {
    category,
    impact,
    rule: rule ?? (verdicts.map((v) => v.ruleId).join(', ') || undefined),
    operations,
    field: fieldName(side.document, pointer),
    pointer,
    // Redocly's own words when it has a verdict (also one our rules overrode).
    message: change.verdicts.map((v) => v.message).join(' ') || override?.message || describe(change, side.document),
    documentation: !major && !override && isDocumentation(change),
  };
}

/** The operation Redocly found the change through first, then every other one using the same component. */
function operationsOf(change, users, sides) {
  const document = change.kind === 'removed' ? sides.base.document : sides.revision.document;
  const found = [...operationsAt(document, change.path), ...users];
  const labels = found.map(({ path, method }) =>
    operationLabel(document?.paths?.[path]?.[method] ? document : sides.base.document, path, method),
  );
  return [...new Set(labels)];
}

/** A sentence for changes Redocly gives no verdict (and so no message) for. */
function describe(change, document) {
  const parts = segments(change.path);
  const last = parts.at(-1);
  const noun =
    change.typeName === 'PathItem' ? `Path \`${last}\``
    : change.typeName === 'Operation' ? 'Operation'
    : change.typeName === 'Parameter' ? `Parameter${change.revision?.value?.name ? ` \`${change.revision.value.name}\`` : ''}`
    : change.typeName === 'Response' ? `Response \`${last}\``
    : parts.at(-2) === 'properties' ? `Property \`${last}\``
    : change.typeName === 'SchemaProperties' ? 'Properties'
    : (change.typeName ?? 'Node').replace(/([a-z])([A-Z])/g, '$1 $2');
  if (change.kind === 'added' && parts.at(-2) === 'properties') {
    return `${noun} was added (${isRequired(document, change.revision?.pointer) ? 'required' : 'optional'}).`;
  }
  if (change.kind !== 'modified') return `${noun} was ${change.kind}.`;
  const short = (value) => (value === undefined ? 'unset' : JSON.stringify(value)).slice(0, 60);
  if (DOC_PROPERTIES.has(change.property)) return `\`${change.property}\` changed.`;
  return `\`${change.property}\` changed from ${short(change.base?.value)} to ${short(change.revision?.value)}.`;
}

function isRequired(document, pointer) {
  if (!pointer) return false;
  const parts = segments(pointer);
  const schema = at(document, toPointer(parts.slice(0, -2)));
  return Array.isArray(schema?.required) && schema.required.includes(parts.at(-1));
}

function isDocumentation(change) {
  return DOC_PROPERTIES.has(change.property) || /^Example/.test(change.typeName ?? '') || segments(change.path).includes('examples');
}
