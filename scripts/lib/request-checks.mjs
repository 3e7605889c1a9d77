// Request checks from a bundle: for every operation, a validator of its path
// parameters, query parameters and declared headers, and one of its JSON body,
// compiled by Ajv at generate time into standalone code. The sandbox runs that
// code before any handler, so a spec bump reaches it with no hand edit.
//
// Why Ajv standalone code, measured against the other candidate,
// @cfworker/json-schema interpreting the bundled schemas at run time (Node 20,
// this repository's 2-core machine, 2026-11-27):
// - both run where no `eval`/`new Function` is allowed (workerd): the
//   standalone code is plain JavaScript compiled here, at generate time;
// - cost per request: a CreateOperation body (nested, patterns, formats)
//   takes about 3 µs with Ajv's code and 33 µs interpreted, a third of what
//   the sandbox spends on a whole request (about 0.1 ms in process); a path
//   check 0.25 µs (`npm run bench -- sandbox`, "request check alone");
// - size in ./sandbox, minified and gzipped: about +53 kB for Ajv's code of
//   all 126 operations (54 kB -> 107 kB), about +19 kB for the interpreter and
//   the request schemas. Speed won: the sandbox serves test suites, which send
//   thousands of requests; its bundle is loaded once and never by the clients.
// The code needs Ajv's small run-time helpers (ucs2length, equal, the formats),
// so ajv and ajv-formats are production dependencies of the package.
import AjvModule from 'ajv';
import formatsPlugin from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';

const standaloneCode = standaloneModule.default ?? standaloneModule;
const Ajv = AjvModule.default ?? AjvModule;
const addFormats = formatsPlugin.default ?? formatsPlugin;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];
const ID = 'https://request-checks.local/';

/** `#/a/b` → the value at that pointer of `document`. */
function resolvePointer(document, ref) {
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((at, key) => at?.[key], document);
}

function deref(document, value) {
  return value?.$ref?.startsWith('#/') ? resolvePointer(document, value.$ref) : value;
}

/** A JSON pointer segment. */
function escape(segment) {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Makes a schema of the bundle point into the bundle from outside it (`#/x` → `<id>#/x`). */
function anchored(schema, bundleId) {
  if (Array.isArray(schema)) return schema.map((item) => anchored(item, bundleId));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#') ? `${bundleId}${value}` : anchored(value, bundleId),
    ]),
  );
}

/**
 * The operations of a bundle with what the check needs: the parameters (path
 * level and operation level, the latter winning), the JSON body schema's
 * pointer, and the refusal statuses the operation documents.
 */
export function operationsOf(document) {
  const operations = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const byKey = new Map();
      for (const raw of [...(item.parameters ?? []), ...(operation.parameters ?? [])]) {
        const parameter = deref(document, raw);
        byKey.set(`${parameter.in}:${parameter.name}`, parameter);
      }
      const body = deref(document, operation.requestBody);
      const json = body?.content?.['application/json'];
      const pointer = `#/paths/${escape(path)}/${method}`;
      const bodyPointer =
        json?.schema === undefined
          ? undefined
          : operation.requestBody.$ref
            ? `${operation.requestBody.$ref}/content/application~1json/schema`
            : `${pointer}/requestBody/content/application~1json/schema`;
      const refusals = Object.keys(operation.responses ?? {})
        .filter((status) => /^4\d\d$/.test(status))
        .map(Number)
        .sort((a, b) => a - b);
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        path,
        parameters: [...byKey.values()],
        bodyPointer,
        bodyRequired: json !== undefined && body.required === true,
        refusals,
      });
    }
  }
  return operations;
}

/**
 * The schema of an operation's parameters as the sandbox hands them over:
 * `{ path: {...}, query: {...}, header: {...} }`, every value a string (or a
 * list of strings for array parameters), coerced to the declared types.
 * Header names are lowercase, as `Headers` gives them. Security headers are
 * left to authentication, which runs first.
 */
function parametersSchema(operation, bundleId) {
  const groups = { path: {}, query: {}, header: {} };
  const required = { path: [], query: [], header: [] };
  for (const parameter of operation.parameters) {
    if (!(parameter.in in groups) || parameter.schema === undefined) continue;
    const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
    if (parameter.in === 'header' && !declaredHeaders(operation).includes(name)) continue;
    groups[parameter.in][name] = anchored(parameter.schema, bundleId);
    if (parameter.required === true) required[parameter.in].push(name);
  }
  const group = (where) => ({ type: 'object', properties: groups[where], ...(required[where].length > 0 ? { required: required[where] } : {}) });
  return { type: 'object', properties: { path: group('path'), query: group('query'), header: group('header') } };
}

/** How each query parameter is read: `single`, `repeated` (form, exploded array) or `comma` (form, not exploded). */
function queryShapes(operation, document) {
  const shapes = {};
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'query' || parameter.schema === undefined) continue;
    const schema = deref(document, parameter.schema);
    if (schema?.type !== 'array') continue;
    shapes[parameter.name] = parameter.explode === false ? 'comma' : 'repeated';
  }
  return shapes;
}

/** The lowercase names of the headers the check reads (the declared ones, security headers left to authentication). */
function declaredHeaders(operation) {
  return operation.parameters
    .filter((parameter) => parameter.in === 'header' && parameter.schema !== undefined)
    .map((parameter) => parameter.name.toLowerCase())
    .filter((name) => !/^(authorization|x-authorization-)/.test(name));
}

/** Ajv's run-time helpers are CommonJS: imported as namespaces and unwrapped the same way under Node and bundlers. */
const INTEROP = `const commonjs = (namespace) => (namespace.default && typeof namespace.default === 'object' && namespace.default.__esModule ? namespace.default : namespace);\n`;

/** Ajv writes `require("x")` for its helpers; the module is ESM, so each becomes an import. */
function requiresToImports(code) {
  const modules = [];
  const body = code.replace(/require\("([^"]+)"\)/g, (_, specifier) => {
    let index = modules.indexOf(specifier);
    if (index < 0) index = modules.push(specifier) - 1;
    return `helper${index}`;
  });
  const allowed = /^(ajv\/dist\/runtime\/[a-z0-9]+|ajv-formats\/dist\/formats)$/;
  for (const specifier of modules) {
    if (!allowed.test(specifier)) throw new Error(`request checks: unexpected run-time module ${specifier}`);
  }
  const imports = modules.map((specifier, index) => `import * as helper${index}Module from '${specifier}.js';`).join('\n');
  const unwrap = modules.map((_, index) => `const helper${index} = commonjs(helper${index}Module);`).join('\n');
  return `${imports}\n${INTEROP}${unwrap}\n${body}`;
}

/**
 * The document as Ajv is given it: each `discriminator` without its
 * `mapping` (Ajv reads the branch from the property's `const`/`enum`), or
 * dropped where Ajv cannot use it (the `oneOf` then reports every branch).
 */
function withUsableDiscriminators(document, makeAjv) {
  const copy = structuredClone(document);
  const found = [];
  const walk = (node, pointer) => {
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${pointer}/${index}`));
    else if (node !== null && typeof node === 'object') {
      if (node.discriminator !== undefined && Array.isArray(node.oneOf)) {
        delete node.discriminator.mapping;
        // Ajv applies a discriminator to objects only and then skips the `oneOf`: anything else must fail on its type.
        node.type ??= 'object';
        found.push({ node, pointer });
      }
      for (const [key, value] of Object.entries(node)) walk(value, `${pointer}/${escape(key)}`);
    }
  };
  walk(copy, '#');
  for (const { node, pointer } of found) {
    const ajv = makeAjv(copy);
    try {
      ajv.compile({ $ref: `${ID}probe${pointer}` });
    } catch {
      delete node.discriminator;
    }
  }
  return copy;
}

/** The module text of one API's request checks. */
export function requestChecksModule(api, original) {
  const bundleId = `${ID}${api}`;
  const makeAjv = (coerceTypes) => {
    const ajv = new Ajv({
      strict: false,
      allErrors: false,
      messages: false,
      inlineRefs: false,
      coerceTypes,
      validateFormats: true,
      // `oneOf` with a `discriminator` picks its branch by the named property, so a refusal names what that branch lacks.
      discriminator: true,
      code: { source: true, esm: true, lines: false, optimize: true, formats: undefined },
    });
    addFormats(ajv, { mode: 'fast' });
    // OpenAPI's own keywords carry no constraint; they are annotations here.
    for (const keyword of ['example', 'xml', 'externalDocs', 'x-decision']) ajv.addKeyword({ keyword });
    ajv.addSchema(document, bundleId);
    return ajv;
  };
  const document = withUsableDiscriminators(original, (probe) => {
    const ajv = new Ajv({ strict: false, discriminator: true, code: { source: true } });
    addFormats(ajv, { mode: 'fast' });
    for (const keyword of ['example', 'xml', 'externalDocs', 'x-decision']) ajv.addKeyword({ keyword });
    ajv.addSchema(probe, `${ID}probe`);
    return ajv;
  });
  // Parameters arrive as text and are coerced to their declared types; bodies are JSON and are not.
  const parametersAjv = makeAjv('array');
  const bodyAjv = makeAjv(false);
  const operations = operationsOf(document);
  const parameterExports = {};
  const bodyExports = {};
  for (const operation of operations) {
    const parametersId = `${ID}${api}/${operation.operationId}/parameters`;
    parametersAjv.addSchema({ $id: parametersId, ...parametersSchema(operation, bundleId) });
    parameterExports[`p_${operation.operationId}`] = parametersId;
    if (operation.bodyPointer !== undefined) {
      const bodyId = `${ID}${api}/${operation.operationId}/body`;
      bodyAjv.addSchema({ $id: bodyId, $ref: `${bundleId}${operation.bodyPointer}` });
      bodyExports[`b_${operation.operationId}`] = bodyId;
    }
  }
  const parametersCode = requiresToImports(standaloneCode(parametersAjv, parameterExports));
  const bodyCode = requiresToImports(standaloneCode(bodyAjv, bodyExports))
    // Two standalone modules in one file: the second one's names get their own prefix.
    .replace(/\bhelper(\d+)/g, 'bodyHelper$1')
    .replace(/^const commonjs = .*\n/m, '');
  const table = operations
    .map((operation) => {
      const entry = {
        method: operation.method,
        path: operation.path,
        refusals: operation.refusals,
        bodyRequired: operation.bodyRequired,
        queryShapes: queryShapes(operation, document),
        headers: declaredHeaders(operation),
      };
      const body = operation.bodyPointer === undefined ? 'undefined' : `b_${operation.operationId}`;
      return `  ${operation.operationId}: { ...${JSON.stringify(entry)}, parameters: p_${operation.operationId}, body: ${body} },`;
    })
    .join('\n');
  return (
    `// Generated by scripts/generate.mjs from openapi/${api} (scripts/lib/request-checks.mjs). Do not edit by hand.\n` +
    `// Regenerate with \`npm run generate\`. Ajv standalone code: no eval or new Function at run time.\n` +
    `// @ts-nocheck\n` +
    `/* eslint-disable */\n` +
    `${isolate(parametersCode, 'p')}\n` +
    `${isolate(bodyCode, 'b')}\n` +
    `/** Every operation's request check, by operationId. */\n` +
    `export const requestChecks = {\n${table}\n};\n`
  );
}

/**
 * Ajv names its functions `validate0…`, `schema0…`, `pattern0…`, `formats0…`
 * in each standalone module; two in one file get a prefix each, and the
 * exports become plain declarations the table refers to.
 */
function isolate(code, prefix) {
  return code
    .replace(/^"use strict";/, '')
    .replace(/\b(validate|schema|pattern|formats|func|wrapper|root|evaluated)(\d+)\b/g, `${prefix}_$1$2`)
    .replace(/export const /g, 'const ');
}
