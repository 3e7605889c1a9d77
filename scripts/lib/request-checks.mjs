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
//
// How the code is made, with no edit of code text:
// - OpenAPI 3.1 schemas are JSON Schema 2020-12: Ajv's 2020-12 class, in
//   strict mode, so a keyword Ajv does not understand fails the build instead
//   of being ignored (OpenAPI's annotation keywords are declared as such);
// - each of an API's two validator sets (parameters, bodies) is a module of
//   its own, Ajv's standalone code as it writes it, so Ajv's names
//   (`validate0`, `schema1`, …) cannot meet the other set's; a third module
//   holds the table of operations;
// - the `require` that code calls is the one of `runtime.ts`, Ajv's run-time helpers and
//   ajv-formats' formats bundled by esbuild at generate time
//   (`requestChecksRuntime()`): the package needs neither ajv nor
//   ajv-formats at run time, and no deep import into them.
import { buildSync } from 'esbuild';
import Ajv2020Module from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import standaloneModule from 'ajv/dist/standalone/index.js';

const standaloneCode = standaloneModule.default ?? standaloneModule;
const Ajv2020 = Ajv2020Module.default ?? Ajv2020Module;
const addFormats = formatsPlugin.default ?? formatsPlugin;

/**
 * The modules Ajv's code may `require`, bundled into `runtime.ts`. A spec
 * whose checks need another one fails the build, naming it.
 */
const RUNTIME_MODULES = ['ajv/dist/runtime/ucs2length', 'ajv/dist/runtime/equal', 'ajv-formats/dist/formats'];

/** OpenAPI's keywords that carry no constraint: annotations for Ajv (strict mode refuses unknown ones). */
const OPENAPI_ANNOTATIONS = ['example', 'xml', 'externalDocs'];

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

/** Where a component schema lives in the schema resource the checks compile: `#/$defs/<name>`. */
const COMPONENT_SCHEMAS = '#/components/schemas/';

/**
 * A schema of the bundle with its `$ref`s turned into the schema resource's
 * (`#/components/schemas/X` → `<base>#/$defs/X`); `base` is '' inside the
 * resource and its `$id` outside it. A `$ref` to anything but a component
 * schema fails the build: the checks would not find it.
 */
function anchored(schema, base) {
  if (Array.isArray(schema)) return schema.map((item) => anchored(item, base));
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => {
      if (key !== '$ref' || typeof value !== 'string') return [key, anchored(value, base)];
      if (!value.startsWith(COMPONENT_SCHEMAS)) throw new Error(`request checks: a schema refers to ${value}, not to a component schema`);
      return [key, `${base}#/$defs/${value.slice(COMPONENT_SCHEMAS.length)}`];
    }),
  );
}

/**
 * Keywords that only annotate: no check reads them. They are left out of what
 * Ajv compiles, because its standalone code keeps each schema it compiled as
 * a constant, and descriptions would otherwise make most of the sandbox's
 * bundle.
 */
const ANNOTATIONS = new Set(['description', 'examples', 'example', 'title', 'externalDocs', 'xml', '$comment', 'deprecated', 'readOnly', 'writeOnly']);
/** Keywords whose value maps names (of properties, definitions) to schemas: the names are kept whatever they are. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);
/** Keywords whose value is data, not a schema: kept as they are. */
const DATA = new Set(['enum', 'const', 'default', 'required', 'dependentRequired', 'type', 'discriminator', 'format', 'pattern']);

/** `schema` without its annotations (`ANNOTATIONS` and `x-…`), at every depth. */
function withoutAnnotations(schema) {
  if (Array.isArray(schema)) return schema.map(withoutAnnotations);
  if (schema === null || typeof schema !== 'object') return schema;
  const kept = {};
  for (const [key, value] of Object.entries(schema)) {
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    if (DATA.has(key)) kept[key] = value;
    else if (NAMED_SCHEMAS.has(key) && value !== null && typeof value === 'object') {
      kept[key] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withoutAnnotations(item)]));
    } else kept[key] = withoutAnnotations(value);
  }
  return kept;
}

/** The `$defs` name of an operation's JSON body: `:` appears in no component name, so it meets none. */
const bodyDef = (operationId) => `body:${operationId}`;

/**
 * The JSON Schema 2020-12 resource the checks compile against: every
 * component schema and every operation's JSON body under `$defs`. (An OpenAPI
 * document itself is not a schema: strict mode would refuse `openapi`,
 * `paths`, … as unknown keywords.)
 */
function schemaResource(document, operations, bundleId) {
  const components = Object.entries(document.components?.schemas ?? {}).map(([name, schema]) => [name, withoutAnnotations(schema)]);
  const $defs = anchored(Object.fromEntries(components), '');
  for (const operation of operations) {
    if (operation.bodySchema !== undefined) $defs[bodyDef(operation.operationId)] = anchored(withoutAnnotations(operation.bodySchema), '');
  }
  return { $id: bundleId, $defs };
}

/** The `x-…` keywords used anywhere in `schema`: annotations, declared to Ajv as such. */
function extensionKeywords(schema, found = new Set()) {
  if (Array.isArray(schema)) schema.forEach((item) => extensionKeywords(item, found));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key.startsWith('x-')) found.add(key);
      extensionKeywords(value, found);
    }
  }
  return found;
}

/**
 * The operations of a bundle with what the check needs: the parameters (path
 * level and operation level, the latter winning), the JSON body schema (and
 * its pointer), and the refusal statuses the operation documents.
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
        bodySchema: json?.schema,
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
 * list of strings for array parameters), coerced to the declared types and
 * given the declared defaults, which the handlers then read. Header names are
 * lowercase, as `Headers` gives them. Security headers are left to
 * authentication, which runs first.
 */
function parametersSchema(operation, document, bundleId) {
  const groups = { path: {}, query: {}, header: {} };
  const required = { path: [], query: [], header: [] };
  for (const parameter of operation.parameters) {
    if (!(parameter.in in groups) || parameter.schema === undefined) continue;
    const name = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
    if (parameter.in === 'header' && !declaredHeaders(operation).includes(name)) continue;
    groups[parameter.in][name] = withDefault(anchored(withoutAnnotations(parameter.schema), bundleId), deref(document, parameter.schema));
    if (parameter.required === true) required[parameter.in].push(name);
  }
  const group = (where) => ({ type: 'object', properties: groups[where], ...(required[where].length > 0 ? { required: required[where] } : {}) });
  return { type: 'object', properties: { path: group('path'), query: group('query'), header: group('header') } };
}

/**
 * Ajv's `useDefaults` reads a property's `default` from the property's own
 * schema, not through a `$ref`: a parameter whose schema is a reference
 * carries the referenced schema's default beside it.
 */
function withDefault(schema, resolved) {
  return schema.$ref !== undefined && schema.default === undefined && resolved?.default !== undefined ? { ...schema, default: resolved.default } : schema;
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

/** An Ajv for the checks: 2020-12, strict, OpenAPI's annotations and the resource's `x-…` keywords declared. */
function makeAjv(resource, options) {
  const ajv = new Ajv2020({
    strict: true,
    allErrors: false,
    messages: false,
    inlineRefs: false,
    validateFormats: true,
    // `oneOf` with a `discriminator` picks its branch by the named property, so a refusal names what that branch lacks.
    discriminator: true,
    code: { source: true, esm: true, lines: false, optimize: true },
    ...options,
  });
  // Ajv2020 sets both for every schema: each function it writes then tracks the
  // properties it evaluated and carries the dynamic anchors (+5 kB gzipped in
  // ./sandbox). Only `unevaluatedProperties`/`unevaluatedItems` and
  // `$dynamicRef` read them, so they stay on where the resource uses those.
  const text = JSON.stringify(resource);
  ajv.opts.unevaluated = /"unevaluated(Properties|Items)"/.test(text);
  ajv.opts.dynamicRef = /"\$dynamic(Ref|Anchor)"/.test(text);
  addFormats(ajv, { mode: 'fast' });
  for (const keyword of [...OPENAPI_ANNOTATIONS, ...extensionKeywords(resource)]) ajv.addKeyword({ keyword });
  ajv.addSchema(resource);
  return ajv;
}

/**
 * The resource as Ajv is given it: each `discriminator` without its
 * `mapping` (Ajv reads the branch from the property's `const`/`enum`), or
 * dropped where Ajv cannot use it (the `oneOf` then reports every branch).
 */
function withUsableDiscriminators(original) {
  const resource = structuredClone(original);
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
  walk(resource, '#');
  for (const { node, pointer } of found) {
    try {
      makeAjv(resource).compile({ $ref: `${resource.$id}${encodeURI(pointer)}` });
    } catch {
      delete node.discriminator;
    }
  }
  return resource;
}

/**
 * A module of standalone code, as Ajv writes it (ES module, one export per
 * operation), after one import: the `require` its code calls, the one of
 * `runtime.ts`. The code is never edited; the modules it asks for are checked
 * against `RUNTIME_MODULES` here, and again when it loads.
 */
function partModule(api, what, code) {
  for (const [, specifier] of code.matchAll(/require\("([^"]+)"\)/g)) {
    if (!RUNTIME_MODULES.includes(specifier)) throw new Error(`request checks: Ajv's code needs ${specifier}; add it to RUNTIME_MODULES in scripts/lib/request-checks.mjs`);
  }
  return (
    `// Generated by scripts/generate.mjs from openapi/${api} (scripts/lib/request-checks.mjs): the ${what} checks. Do not edit by hand.\n` +
    `// Ajv standalone code: no eval or new Function at run time.\n` +
    `// @ts-nocheck\n` +
    `/* eslint-disable */\n` +
    `import { runtimeRequire as require } from './runtime.js';\n` +
    `${code}\n`
  );
}

/**
 * The modules of one API's request checks, by file name: `<name>.ts` (the
 * table, by operationId), `<name>.parameters.ts` and `<name>.bodies.ts`
 * (Ajv's code, each set in a module of its own, so their names never meet
 * and a bundler drops what the table does not use). They import
 * `./runtime.js` (`requestChecksRuntime()`), which must be written beside them.
 */
export function requestChecksModules(api, document, name = api) {
  const bundleId = `https://request-checks.local/${api}`;
  const operations = operationsOf(document);
  const resource = withUsableDiscriminators(schemaResource(document, operations, bundleId));
  // Parameters arrive as text: coerced to their declared types, absent ones given their defaults. Bodies are JSON and are neither.
  const parametersAjv = makeAjv(resource, { coerceTypes: 'array', useDefaults: true });
  const bodyAjv = makeAjv(resource, { coerceTypes: false, useDefaults: false });
  const parameterExports = {};
  const bodyExports = {};
  for (const operation of operations) {
    const parametersId = `${bundleId}/${operation.operationId}/parameters`;
    parametersAjv.addSchema({ $id: parametersId, ...parametersSchema(operation, document, bundleId) });
    parameterExports[operation.operationId] = parametersId;
    if (operation.bodySchema !== undefined) {
      const bodyId = `${bundleId}/${operation.operationId}/body`;
      bodyAjv.addSchema({ $id: bodyId, $ref: `${bundleId}#/$defs/${encodeURIComponent(bodyDef(operation.operationId))}` });
      bodyExports[operation.operationId] = bodyId;
    }
  }
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
      const key = JSON.stringify(operation.operationId);
      const body = operation.bodySchema === undefined ? 'undefined' : `bodyChecks[${key}]`;
      return `  ${key}: { ...${JSON.stringify(entry)}, parameters: parameterChecks[${key}], body: ${body} },`;
    })
    .join('\n');
  return {
    [`${name}.ts`]:
      `// Generated by scripts/generate.mjs from openapi/${api} (scripts/lib/request-checks.mjs). Do not edit by hand.\n` +
      `// Regenerate with \`npm run generate\`.\n` +
      `// @ts-nocheck\n` +
      `/* eslint-disable */\n` +
      `import * as parameterChecks from './${name}.parameters.js';\n` +
      `import * as bodyChecks from './${name}.bodies.js';\n\n` +
      `/** Every operation's request check, by operationId. */\n` +
      `export const requestChecks = {\n${table}\n};\n`,
    [`${name}.parameters.ts`]: partModule(api, 'parameter', standaloneCode(parametersAjv, parameterExports)),
    [`${name}.bodies.ts`]: partModule(api, 'body', standaloneCode(bodyAjv, bodyExports)),
  };
}

/**
 * The module text of `runtime.ts`: the modules of `RUNTIME_MODULES`, bundled
 * by esbuild from node_modules, behind the `require` Ajv's code calls.
 */
export function requestChecksRuntime(root) {
  const entry = [
    `const modules = {`,
    ...RUNTIME_MODULES.map((specifier) => `  ${JSON.stringify(specifier)}: () => require(${JSON.stringify(`${specifier}.js`)}),`),
    `};`,
    `const loaded = new Map();`,
    `/** The run-time module Ajv's code asks for (only those listed). */`,
    `export function runtimeRequire(specifier) {`,
    `  if (!loaded.has(specifier)) {`,
    `    const load = Object.hasOwn(modules, specifier) ? modules[specifier] : undefined;`,
    `    if (load === undefined) throw new Error('request checks: no run-time module ' + specifier);`,
    `    loaded.set(specifier, load());`,
    `  }`,
    `  return loaded.get(specifier);`,
    `}`,
  ].join('\n');
  const { outputFiles } = buildSync({
    stdin: { contents: entry, resolveDir: root, sourcefile: 'request-checks-runtime.js', loader: 'js' },
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    legalComments: 'inline',
    write: false,
  });
  return (
    `// Generated by scripts/generate.mjs (scripts/lib/request-checks.mjs): Ajv's run-time helpers and ajv-formats' formats,\n` +
    `// bundled for the request checks, so the package needs neither at run time. Do not edit by hand.\n` +
    `// ajv and ajv-formats: MIT licence, (c) Evgeny Poberezkin and contributors.\n` +
    `// @ts-nocheck\n` +
    `/* eslint-disable */\n` +
    outputFiles[0].text
  );
}
