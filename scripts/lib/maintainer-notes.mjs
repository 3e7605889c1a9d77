// Maintainer notes in the specs: `x-decision` records why a fact of an API
// was chosen (a gap in the service's published description, a conflict
// between sources). It stays in the specs and the bundles, where maintainers
// read it, and is dropped from what the reference docs are built from, so the
// published pages (which embed the whole document in their source) carry only
// what the API does.
import { parseDocument, visit } from 'yaml';

export const NOTE_KEY = 'x-decision';

/** Words of authoring notes that a published `description` must not contain. */
export const AUTHORING_NOTE = /Decision:|seed|not shown/i;

/**
 * Wording that speaks of the service's own description instead of the API
 * ("published as \"CRE Connect API\" 0.8.0", "the published description
 * calls it ISO 8601", "with its own published body", "values are not
 * published"): how the spec was written, which readers of the reference docs
 * have no use for. The docs test looks for it in the visible text of every
 * page; the unit test and `npm run lint` in every description.
 * "Reports published over WebSocket" is about the API, so only `published`
 * followed by a word about documents, or `not published`, counts.
 */
export const MAINTAINER_WORDING =
  /\bpublished as (?=["\u201c])|\bpublished (?:description|descriptions|body|bodies|schema|enum|values?|examples?|text|list|category|shape)\b|\bnot (?:been )?published\b|\bas the service publishes\b|\bthe service publishes (?:them|both|it|no)\b|\bproduct description\b|\bx-decision\b/i;

/** The YAML text of an OpenAPI document without its `x-decision` notes; nothing else changes. */
export function withoutMaintainerNotes(yamlText) {
  const document = parseDocument(yamlText);
  if (document.errors.length > 0) throw new Error(`not a YAML document: ${document.errors[0].message}`);
  visit(document, {
    Pair(_, pair) {
      const key = pair.key && typeof pair.key === 'object' && 'value' in pair.key ? pair.key.value : pair.key;
      if (key === NOTE_KEY) return visit.REMOVE;
      return undefined;
    },
  });
  return document.toString({ lineWidth: 0 });
}
