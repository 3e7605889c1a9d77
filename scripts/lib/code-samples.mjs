// SDK code samples for the reference docs: one short TypeScript sample per
// operation, showing the call with this SDK's client (Redoc renders
// `x-codeSamples` beside each operation). Made from the bundle itself: the
// method and path, the required parameters and the first request example.
// Added to the docs build only, never to the committed bundles users
// regenerate from. test/unit/code-samples.test.ts type-checks every sample.
import { parseDocument } from 'yaml';
import { CHANNELS_CLIENT, CLIENTS, quote, sdkCallSample } from './sdk-call.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

/**
 * The first call a new user makes, shown on the docs index under the install
 * line: a client at the organisation's own address and one read.
 */
export const FIRST_CALL_SAMPLE = [
  "import { createChannelsClient, unwrap } from '@ourteam/service-sdk/channels';",
  '',
  CHANNELS_CLIENT,
  "const networks = await unwrap(channels.GET('/networks'));",
  'for (const network of networks.data) console.log(network.name, network.chain_selector);',
].join('\n');

/** Follows local `$ref`s until the object they name. */
function deref(doc, node) {
  let current = node;
  while (current && typeof current === 'object' && typeof current.$ref === 'string') {
    current = current.$ref
      .slice(2)
      .split('/')
      .reduce((at, key) => at?.[key.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  }
  return current;
}

function sampleFromSchema(doc, raw) {
  const schema = deref(doc, raw);
  if (!schema) return 'value';
  if (schema.examples?.length) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  if (schema.allOf) return sampleFromSchema(doc, schema.allOf[0]);
  if (schema.oneOf || schema.anyOf) return sampleFromSchema(doc, (schema.oneOf ?? schema.anyOf)[0]);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [sampleFromSchema(doc, schema.items)];
  if (type === 'object') {
    return Object.fromEntries((schema.required ?? []).map((name) => [name, sampleFromSchema(doc, schema.properties?.[name])]));
  }
  return 'value';
}

function parameterValue(doc, parameter) {
  if (parameter.example !== undefined) return parameter.example;
  const named = Object.values(parameter.examples ?? {})[0];
  if (named) return deref(doc, named).value;
  return sampleFromSchema(doc, parameter.schema);
}

function requestBody(doc, operation) {
  const media = deref(doc, operation.requestBody)?.content?.['application/json'];
  if (!media) return undefined;
  const named = Object.values(media.examples ?? {})[0];
  if (named) return deref(doc, named).value;
  if (media.example !== undefined) return media.example;
  return sampleFromSchema(doc, media.schema);
}

/** The TypeScript sample of one operation. */
export function codeSample(api, doc, method, path, operation, pathItem = {}) {
  const client = CLIENTS[api];
  if (client === undefined) throw new Error(`no client for the API ${api}`);
  if (api === 'streams' && operation.operationId === 'streamReports') {
    return [
      `import { createStreamsClient, streamReports } from '@ourteam/service-sdk/streams';`,
      '',
      client.create,
      `for await (const report of streamReports(streams, ['0x000359843a543ee2fe414dc14c7e7920ef10f4372990b79d6361cdc0dd1ba782'], { decode: true })) {`,
      '  console.log(report.feedID, report.observationsTimestamp);',
      '}',
    ].join('\n');
  }
  if (api === 'streams' && operation.operationId === 'getStreamOrigins') {
    // Served by the WebSocket host, not the REST one, and answered in a header, not a body.
    const wsHost = operation.servers?.[0]?.url ?? pathItem.servers?.[0]?.url ?? 'https://ws.testnet-dataengine.chain.link';
    return [
      `import { createStreamsClient } from '@ourteam/service-sdk/streams';`,
      '',
      client.create,
      '// streamReports reads these itself; this is the request it makes.',
      `const { response } = await streams.HEAD('/', { baseUrl: ${quote(wsHost)} });`,
      "console.log(response.headers.get('X-Cll-Available-Origins')); // e.g. {001,002}",
    ].join('\n');
  }
  const { parameters, body } = operationInputs(doc, operation, pathItem);
  const groups = {};
  for (const parameter of parameters) {
    if (parameter.required) (groups[parameter.in] ??= {})[parameter.name] = parameter.value;
  }
  return sdkCallSample(api, method, path, { params: groups, body });
}

/**
 * What a caller gives one operation, from the spec: each parameter (path,
 * query, header; not `Authorization`, which the client sets) with its
 * example value, whether it is required (path parameters always are), its
 * type and how an array is written in the query; and the example body, or
 * undefined when the operation takes none.
 */
export function operationInputs(doc, operation, pathItem = {}) {
  const parameters = [];
  for (const parameter of [...(pathItem.parameters ?? []), ...(operation.parameters ?? [])].map((p) => deref(doc, p))) {
    if (!['path', 'query', 'header'].includes(parameter.in)) continue;
    if (parameter.in === 'header' && /^authorization$/i.test(parameter.name)) continue;
    const schema = deref(doc, parameter.schema) ?? {};
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
    const hasExample = parameter.example !== undefined || Object.keys(parameter.examples ?? {}).length > 0;
    parameters.push({
      name: parameter.name,
      in: parameter.in,
      required: parameter.in === 'path' || parameter.required === true,
      type: type ?? 'string',
      // OpenAPI's default for query arrays is form, exploded: `a=1&a=2`; `explode: false` joins them with commas.
      explode: parameter.explode !== false,
      value: parameterValue(doc, parameter),
      hasExample,
    });
  }
  return { parameters, body: requestBody(doc, operation) };
}

/** Every operation of a bundle with its sample: `[operationId, source]`. */
export function codeSamplesOf(api, doc) {
  const samples = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation) samples.push([operation.operationId, codeSample(api, doc, method, path, operation, item)]);
    }
  }
  return samples;
}

/** The bundle's YAML text with an `x-codeSamples` entry on every operation. */
export function withCodeSamples(api, yamlText) {
  const document = parseDocument(yamlText);
  const doc = document.toJS();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const source = codeSample(api, doc, method, path, operation, item);
      document.setIn(['paths', path, method, 'x-codeSamples'], [{ lang: 'TypeScript', label: 'SDK', source }]);
    }
  }
  return document.toString({ lineWidth: 0 });
}
