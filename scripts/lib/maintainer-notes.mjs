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
