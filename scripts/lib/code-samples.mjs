// SDK code samples for the reference docs: one short TypeScript sample per
// operation, showing the call with this SDK's client (Redoc renders
// `x-codeSamples` beside each operation). Made from the bundle itself: the
// method and path, the required parameters and the first request example.
// Added to the docs build only, never to the committed bundles users
// regenerate from. test/unit/code-samples.test.ts type-checks every sample.
import { parseDocument } from 'yaml';
import { CHANNELS_CLIENT, CLIENTS, literal, quote, sdkCallSample } from './sdk-call.mjs';

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
export function deref(doc, node) {
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
  const raw = sdkCallSample(api, method, path, { params: groups, body });
  const helper = helperOf(api, doc, method, path, operation);
  return helper === undefined ? raw : withHelper(api, raw, helper.names, helper.code({ path: groups.path ?? {}, query: groups.query ?? {}, body, apiPath: path, params: groups }));
}

/**
 * Where one of the SDK's helpers covers an operation, its sample shows the
 * helper first, then the same request by its path: `{ names, code(values) }`,
 * the helpers it imports and its lines (after the client is made).
 * `values` are the example's required parameters (`path`, `query`), its body,
 * the operation's path and its parameter groups.
 */
const HELPERS = {
  'streams getLatestReport': { names: ['getLatestReport'], code: ({ query }) => [`const report = await getLatestReport(streams, ${quote(query.feedID)}, { decode: true });`] },
  'streams getReportAtTimestamp': {
    names: ['getReportAtTimestamp'],
    code: ({ query }) => [`const report = await getReportAtTimestamp(streams, ${quote(query.feedID)}, ${query.timestamp}, { decode: true });`],
  },
  'streams getBulkReports': {
    names: ['getBulkReports'],
    code: ({ query }) => [`const { reports, missingFeedIDs, complete } = await getBulkReports(streams, ${literal(query.feedIDs)}, ${query.timestamp});`],
  },
  'streams getReportsPage': {
    names: ['paginateReports'],
    code: ({ query }) => [
      `for await (const report of paginateReports(streams, { feedID: ${quote(query.feedID)}, from: ${query.startTimestamp}, to: ${query.startTimestamp + 600} })) {`,
      '  console.log(report.observationsTimestamp);',
      '}',
    ],
  },
  'streams listStreams': { names: ['listStreams'], code: () => ['const catalog = await listStreams(streams);'] },
  'policy-evaluation requestEvaluation': {
    names: ['requestEvaluation', 'waitForEvaluation'],
    code: ({ body }) => [`const { permit_id } = await requestEvaluation(policy, ${literal(body)});`, 'const evaluation = await waitForEvaluation(policy, permit_id); // until it is ready'],
  },
  'policy-evaluation getEvaluationByPermitId': {
    names: ['waitForEvaluation'],
    code: ({ path }) => [`const evaluation = await waitForEvaluation(policy, ${quote(path.permitId)}); // until it is ready`],
  },
  'channels createOperation': {
    names: ['executeWithDraft', 'type DraftSigner'],
    code: ({ path, body }) => {
      const { signature, digest, ...unsigned } = body ?? {};
      return [
        'declare const sign: DraftSigner; // your wallet\'s signer: the draft in, its digest and signature out',
        `const accepted = await executeWithDraft(channels, ${quote(path.channel_id)}, ${literal(unsigned)}, sign);`,
      ];
    },
  },
  'channels getOperation': {
    names: ['waitForOperation'],
    code: ({ path }) => [`const confirmed = await waitForOperation(channels, ${literal(path)}); // accepted → … → confirmed`],
  },
  'channels createQuery': {
    names: ['createQuery', 'waitForQuery'],
    code: ({ path, body }) => {
      const { idempotency_key, ...query } = body ?? {};
      return [
        `const query = await createQuery(channels, ${quote(path.channel_id)}, ${literal(query)});`,
        `const done = await waitForQuery(channels, { channel_id: ${quote(path.channel_id)}, query_id: query.query_id });`,
      ];
    },
  },
  'channels getQuery': {
    names: ['waitForQuery'],
    code: ({ path }) => [`const done = await waitForQuery(channels, ${literal(path)}); // until it completes`],
  },
};

/** The paginator of each API's lists: the field of a list's answer that says there is more, and the query parameters it pages with. */
const PAGINATORS = {
  channels: { name: 'paginate', client: 'channels', more: 'has_more', paging: ['limit', 'offset'] },
  'policy-coordinator': { name: 'paginateCoordinator', client: 'policy.coordinator', more: 'total_pages', paging: ['page', 'page_size'] },
  'policy-reporting': { name: 'paginateReporting', client: 'policy.reporting', more: 'next_page_token', paging: ['page_token', 'page_size'] },
};

/** The properties of an answer's schema, through `$ref`s and `allOf`. */
function propertiesOf(doc, raw) {
  const schema = deref(doc, raw) ?? {};
  return Object.assign({}, ...(schema.allOf ?? []).map((part) => propertiesOf(doc, part)), schema.properties ?? {});
}

/** The helper that covers an operation, if any: one of HELPERS, or the API's paginator for a GET whose answer pages. */
function helperOf(api, doc, method, path, operation) {
  const named = HELPERS[`${api} ${operation.operationId}`];
  if (named !== undefined) return named;
  const paginator = PAGINATORS[api];
  const ok = deref(doc, operation.responses?.['200'])?.content?.['application/json']?.schema;
  if (paginator === undefined || method !== 'get' || ok === undefined || !(paginator.more in propertiesOf(doc, ok))) return undefined;
  const query = [...(operation.parameters ?? [])].map((parameter) => deref(doc, parameter)).filter((parameter) => parameter?.in === 'query').map((parameter) => parameter.name);
  if (!paginator.paging.every((name) => query.includes(name))) return undefined;
  return {
    names: [paginator.name],
    code: ({ params }) => {
      const init = Object.keys(params).length > 0 ? `, ${literal({ params })}` : '';
      return [`for await (const item of ${paginator.name}(${paginator.client}, ${quote(path)}${init})) {`, '  console.log(item); // every item, page after page', '}'];
    },
  };
}

/** The sample with the helper first: its import added, its lines after the client, then the raw call. */
function withHelper(api, raw, names, lines) {
  const client = CLIENTS[api];
  const [importLine, , ...rest] = raw.split('\n');
  const imported = importLine.replace(/^import \{ ([^}]*) \}/, (whole, list) => `import { ${[...list.split(', '), ...names].join(', ')} }`);
  const createLines = client.create.split('\n').length;
  const create = rest.slice(0, createLines);
  const call = rest.slice(createLines);
  return [imported, '', ...create, '', '// With the SDK\'s helper:', ...lines, '', '// The same request by its path:', ...call].join('\n');
}

/** The helpers an operation's sample shows (`[]` when it shows the raw call only). */
export function helpersOf(api, doc, method, path, operation) {
  return helperOf(api, doc, method, path, operation)?.names.map((name) => name.replace(/^type /, '')).filter((name) => /^[a-z]/.test(name)) ?? [];
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

/**
 * The bundle's YAML text with an `x-codeSamples` entry on every operation.
 * With `guideOf(helper)` (`{ href, title }` of the guide that shows a helper,
 * or undefined), an operation a helper covers says so under its description,
 * linking the guide.
 */
export function withCodeSamples(api, yamlText, { guideOf } = {}) {
  const document = parseDocument(yamlText);
  const doc = document.toJS();
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const source = codeSample(api, doc, method, path, operation, item);
      document.setIn(['paths', path, method, 'x-codeSamples'], [{ lang: 'TypeScript', label: 'SDK', source }]);
      const links = guideOf === undefined ? [] : helpersOf(api, doc, method, path, operation).map((name) => ({ name, guide: guideOf(name) }));
      if (links.length > 0) {
        const named = links.map(({ name, guide }) => (guide ? `[\`${name}\`](${guide.href}) (guide: ${guide.title})` : `\`${name}\``)).join(', ');
        const note = `**With the SDK:** ${named} covers this operation; the SDK sample shows it first, then the same request by its path.`;
        document.setIn(['paths', path, method, 'description'], [operation.description?.trim(), note].filter(Boolean).join('\n\n'));
      }
    }
  }
  return document.toString({ lineWidth: 0 });
}
