// The request a "Try it" form describes, from the text in its fields: the
// URL (path parameters filled in, the query written as the spec says: lists
// repeated, or joined with commas where `explode: false`), the header
// parameters and the body text. Blank fields are left out. No DOM: the page
// script (try-it.mjs) and the tests use it alike.

/** A field's text as the SDK call takes it: numbers as numbers, lists as arrays, booleans as booleans. */
export function typedValue(parameter, text) {
  if (parameter.type === 'array') return text.split(',').map((item) => item.trim()).filter((item) => item !== '');
  if ((parameter.type === 'integer' || parameter.type === 'number') && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
  if (parameter.type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/** A spec value as a field shows it (a list comma-separated). */
export function fieldText(value) {
  return value === undefined ? '' : Array.isArray(value) ? value.join(',') : String(value);
}

/** A URL the sandbox can take: the samples' `<org>` placeholder (the channels API's organisation address) made a host name. */
export function sendable(url) {
  return url.replace('<org>', 'org');
}

/**
 * The request of one console operation. `texts` maps `<in>:<name>` to a
 * field's text; `bodyText` is the body field's, or undefined.
 */
export function requestFor(operation, texts, bodyText) {
  const values = operation.parameters
    .map((parameter) => ({ parameter, text: texts[`${parameter.in}:${parameter.name}`] ?? '' }))
    .filter(({ text }) => text.trim() !== '');
  const path = operation.path.replace(/\{([^}]+)\}/g, (whole, name) => {
    const given = values.find(({ parameter }) => parameter.in === 'path' && parameter.name === name);
    return given ? encodeURIComponent(given.text) : whole;
  });
  const query = new URLSearchParams();
  const headers = [];
  for (const { parameter, text } of values) {
    if (parameter.in === 'header') headers.push([parameter.name, text]);
    if (parameter.in !== 'query') continue;
    const value = typedValue(parameter, text);
    if (!Array.isArray(value)) query.append(parameter.name, String(value));
    else if (parameter.explode) for (const item of value) query.append(parameter.name, item);
    else query.append(parameter.name, value.join(','));
  }
  const body = bodyText !== undefined && bodyText.trim() !== '' ? bodyText : undefined;
  const search = query.toString();
  return { method: operation.method, url: sendable(`${operation.baseUrl}${path}${search ? `?${search}` : ''}`), headers, body, values };
}

/** The fields' texts as the console first shows them: each parameter's pre-filled value, and the example body. */
export function prefilled(operation) {
  const texts = Object.fromEntries(operation.parameters.map((parameter) => [`${parameter.in}:${parameter.name}`, fieldText(parameter.value)]));
  return { texts, bodyText: operation.body === undefined ? undefined : JSON.stringify(operation.body, null, 2) };
}
