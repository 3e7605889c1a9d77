// JSON pointers as redocly diff prints them ("#/paths/~1channels/get/..."),
// and what they point at in a bundled document: the operations concerned and
// a readable name for the field.

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** "#/paths/~1a~1{b}/get" -> ["paths", "/a/{b}", "get"] */
export function segments(pointer) {
  return pointer
    .replace(/^#\/?/, '')
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function toPointer(parts) {
  return '#/' + parts.map((s) => String(s).replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
}

/** The value at a pointer, following no $ref; undefined when absent. */
export function at(document, pointer) {
  let node = document;
  for (const key of segments(pointer)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = node[key];
  }
  return node;
}

/** Follows one local $ref ("#/components/...") if the node is one. */
export function deref(document, node) {
  return node && typeof node.$ref === 'string' && node.$ref.startsWith('#') ? at(document, node.$ref) : node;
}

/** "GET /channels/{channel_id} (getChannel)" */
export function operationLabel(document, path, method) {
  const id = document?.paths?.[path]?.[method]?.operationId;
  return `${method.toUpperCase()} ${path}${id ? ` (${id})` : ''}`;
}

/**
 * The operations a pointer under #/paths belongs to: one for
 * "#/paths/<path>/<method>/...", every method of the path for the path item
 * itself or its shared parameters.
 */
export function operationsAt(document, pointer) {
  const [root, path, method] = segments(pointer);
  if (root !== 'paths' || path === undefined) return [];
  if (METHODS.includes(method)) return [{ path, method }];
  const item = document?.paths?.[path] ?? {};
  return METHODS.filter((m) => item[m]).map((m) => ({ path, method: m }));
}

/**
 * For every $ref target reachable from an operation, the operations that
 * reach it. Redocly reports a change to a shared component once, at its
 * first use; this tells which other operations it touches.
 */
export function usageIndex(document) {
  const index = new Map();
  const walk = (node, operation, seen) => {
    if (node === null || typeof node !== 'object') return;
    if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
      if (seen.has(node.$ref)) return;
      seen.add(node.$ref);
      if (!index.has(node.$ref)) index.set(node.$ref, []);
      index.get(node.$ref).push(operation);
      walk(at(document, node.$ref), operation, seen);
    }
    for (const value of Object.values(node)) walk(value, operation, seen);
  };
  for (const [path, item] of Object.entries(document?.paths ?? {})) {
    for (const method of METHODS.filter((m) => item[m])) walk([item.parameters, item[method]], { path, method }, new Set());
  }
  return index;
}

/**
 * The operations using what a pointer names: one under #/paths, else those
 * reaching the longest $ref target the pointer lies in.
 */
export function usersOf(document, index, pointer) {
  const parts = segments(pointer);
  if (parts[0] === 'paths') return operationsAt(document, pointer);
  for (let n = parts.length; n > 0; n--) {
    const operations = index.get(toPointer(parts.slice(0, n)));
    if (operations) return operations;
  }
  return [];
}

/**
 * A reader's name for the field a pointer is about, e.g.
 * "#/components/schemas/Channel/properties/created_at" -> "`Channel.created_at`",
 * ".../requestBody/content/application~1json/schema/properties/name" -> "request body `name`",
 * ".../parameters/3/required" -> "query parameter `status`".
 */
export function fieldName(document, pointer) {
  const parts = segments(pointer);
  const context = []; // words around the name: "query parameter", "200 response"
  let name = ''; // schema name and property path, shown as code
  let i = 0;
  const parameter = (n) => {
    const value = deref(document, at(document, toPointer(parts.slice(0, n))));
    context.push(`${value?.in ?? ''} parameter`.trim());
    name = value?.name ?? parts[n - 1];
  };
  if (parts[0] === 'components') {
    if (parts[1] === 'parameters') parameter(3);
    else name = parts[2] ?? '';
    i = 3;
  } else if (parts[0] === 'paths') {
    i = METHODS.includes(parts[2]) ? 3 : 2;
  } else {
    return `\`${parts.join('.')}\``; // info, servers, tags, security: no operation to name
  }
  for (; i < parts.length; i++) {
    const [part, next] = [parts[i], parts[i + 1]];
    if (part === 'parameters' && next !== undefined) parameter(++i + 1);
    else if (part === 'requestBody') context.push('request body');
    else if (part === 'responses' && next !== undefined) context.push(`${parts[++i]} response`);
    else if (part === 'headers' && next !== undefined) {
      context.push('header');
      name = parts[++i];
    } else if (part === 'properties' && next !== undefined) name += `.${parts[++i]}`;
    else if (part === 'items') name += '[]';
    else if ((part === 'oneOf' || part === 'anyOf') && next !== undefined) name += `.${part}[${parts[++i]}]`;
    else if (part === 'content' || part === 'allOf') i++; // media type, allOf index: not part of the name
  }
  name = name.replace(/^\./, '');
  return [...context, name && `\`${name}\``].filter(Boolean).join(' ');
}
