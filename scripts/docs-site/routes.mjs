// Redoc's routes on a reference page, as its hash router follows them: a tag
// is `/<tag>` and an operation `/<tag>/<operationid>`, lowercased, spaces as
// dashes (`/policy-engines/listpolicyengines`). The search index and the
// page as served link to them as `<api>.html#<route>`.

/** A tag's name as Redoc writes it in a route. */
export function tagSlug(tag) {
  return String(tag).trim().toLowerCase().replace(/\s+/g, '-');
}

/** An operation's route: under its first tag. */
export function operationRoute(operation) {
  const tag = operation.tags?.[0];
  const id = String(operation.operationId).toLowerCase();
  return tag === undefined ? `/${id}` : `/${tagSlug(tag)}/${id}`;
}
