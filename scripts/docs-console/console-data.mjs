// What the "Try it" console of one reference page needs to know, emitted by
// the docs build into the page as JSON (scripts/build-docs.mjs): each
// operation's method, path, base URL, parameters and example body from the
// spec, which sandbox credentials sign it, and the SDK sample shown beside it.
import { codeSample, operationInputs } from '../lib/code-samples.mjs';
import { CHANNELS_SAMPLE_BASE_URL } from '../lib/sdk-call.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

/** Which of the sandbox's credentials each API's requests carry, and how. */
const AUTH = {
  channels: { credentials: 'channels', scheme: 'apikey' },
  streams: { credentials: 'streams', scheme: 'hmac' },
  'policy-coordinator': { credentials: 'policy', scheme: 'apikey' },
  'policy-evaluation': { credentials: 'policy', scheme: 'apikey' },
  'policy-reporting': { credentials: 'policy', scheme: 'apikey' },
};

/**
 * Operations a page cannot run: the live report stream is a WebSocket, which
 * a request and its answer cannot show.
 */
const NOT_IN_CONSOLE = new Set(['streams streamReports']);

/**
 * The base URL a page's samples show, where it is not the spec's default
 * server: the channels API lives at each organisation's own address.
 */
const SAMPLE_BASE_URLS = { channels: CHANNELS_SAMPLE_BASE_URL };

/** A server object's URL with its variables at their defaults (the production address). */
function serverUrl(server) {
  if (server?.url === undefined) return undefined;
  return server.url.replace(/\{([^}]+)\}/g, (whole, name) => server.variables?.[name]?.default ?? whole).replace(/\/+$/, '');
}

/** Whether the SDK sample is made from the call (and so can show the reader's values), or written by hand. */
function hasCallSample(api, operationId) {
  return !(api === 'streams' && operationId === 'getStreamOrigins');
}

/** The console's data for one API's page. */
export function consoleData(api, doc) {
  const auth = AUTH[api];
  if (auth === undefined) throw new Error(`no sandbox credentials for the API ${api}`);
  const defaultBase = SAMPLE_BASE_URLS[api] ?? serverUrl(doc.servers?.[0]);
  const operations = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation || NOT_IN_CONSOLE.has(`${api} ${operation.operationId}`)) continue;
      const { parameters, body } = operationInputs(doc, operation, item);
      operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        summary: operation.summary,
        baseUrl: serverUrl(operation.servers?.[0]) ?? serverUrl(item.servers?.[0]) ?? defaultBase,
        parameters: parameters.map(({ name, in: where, required, type, explode, value, hasExample }) => ({
          name,
          in: where,
          required,
          type,
          explode,
          // Pre-filled: what the call needs. An optional one shows its example as a hint only:
          // sent as it stands it could change the answer (a page token from the spec's example is no token the sandbox issued).
          value: required ? value : undefined,
          example: !required && hasExample ? value : undefined,
        })),
        body,
        sample: hasCallSample(api, operation.operationId) ? undefined : codeSample(api, doc, method, path, operation, item),
      });
    }
  }
  return { api, auth, operations };
}
