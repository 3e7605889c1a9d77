// The page's operations as plain HTML in a <noscript> block, for readers
// without JavaScript (and search engines, and whatever reads the HTML as
// served): Redoc's prerendered page shows the introduction and the tags only,
// and its operations appear once its script runs. One heading per tag, and
// per operation its summary, method and path, description, parameters, body
// fields, responses and SDK sample. Each operation's block has the id of
// Redoc's route (`/wallets/createwallet`), so a deep link lands on it too.
import { marked } from 'marked';
import { codeSample, deref } from '../lib/code-samples.mjs';
import { operationRoute, tagSlug } from '../docs-site/routes.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

/** Text made safe for HTML. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** A schema's type as a reader reads it: `string (uuid)`, `array of Wallet`, `one of a | b`. */
function typeOf(doc, raw) {
  const name = typeof raw?.$ref === 'string' ? raw.$ref.split('/').pop() : undefined;
  const schema = deref(doc, raw) ?? {};
  if (schema.enum) return `one of ${schema.enum.map(String).join(' | ')}`;
  const type = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null').join(' or ') : schema.type;
  if (type === 'array') return `array of ${typeOf(doc, schema.items)}`;
  if (type === 'object' || (!type && schema.properties)) return name ?? 'object';
  if (!type && (schema.oneOf || schema.anyOf)) return (schema.oneOf ?? schema.anyOf).map((part) => typeOf(doc, part)).join(' | ');
  if (!type && schema.allOf) return name ?? typeOf(doc, schema.allOf[0]);
  return `${type ?? name ?? 'any'}${schema.format ? ` (${schema.format})` : ''}`;
}

/** The properties of an object schema, through `allOf`. */
function propertiesOf(doc, raw) {
  const schema = deref(doc, raw) ?? {};
  const parts = (schema.allOf ?? []).map((part) => propertiesOf(doc, part));
  return {
    properties: Object.assign({}, ...parts.map((part) => part.properties), schema.properties ?? {}),
    required: [...parts.flatMap((part) => part.required), ...(schema.required ?? [])],
  };
}

const markdown = (text) => (text ? marked.parse(String(text), { mangle: false, headerIds: false }) : '');

function table(caption, head, rows) {
  if (rows.length === 0) return '';
  return `<table>\n<caption>${escapeHtml(caption)}</caption>\n<thead><tr>${head.map((cell) => `<th scope="col">${cell}</th>`).join('')}</tr></thead>\n<tbody>\n${rows
    .map((row) => `<tr>${row.map((cell) => `<td>${cell}</td>`).join('')}</tr>`)
    .join('\n')}\n</tbody>\n</table>\n`;
}

function operationHtml(api, doc, method, path, item, operation) {
  const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) => deref(doc, parameter));
  const parameterRows = parameters.map((parameter) => [
    `<code>${escapeHtml(parameter.name)}</code>`,
    escapeHtml(parameter.in),
    escapeHtml(typeOf(doc, parameter.schema)),
    parameter.required || parameter.in === 'path' ? 'required' : 'optional',
    markdown(parameter.description),
  ]);
  const body = deref(doc, operation.requestBody);
  const bodySchema = body?.content?.['application/json']?.schema;
  const { properties, required } = bodySchema ? propertiesOf(doc, bodySchema) : { properties: {}, required: [] };
  const bodyRows = Object.entries(properties).map(([name, schema]) => [
    `<code>${escapeHtml(name)}</code>`,
    escapeHtml(typeOf(doc, schema)),
    required.includes(name) ? 'required' : 'optional',
    markdown(deref(doc, schema)?.description),
  ]);
  const responseRows = Object.entries(operation.responses ?? {}).map(([status, raw]) => {
    const response = deref(doc, raw) ?? {};
    const schema = response.content?.['application/json']?.schema;
    return [escapeHtml(status), schema ? escapeHtml(typeOf(doc, schema)) : '', markdown(response.description)];
  });
  const sample = codeSample(api, doc, method, path, operation, item);
  const title = operation.summary ?? operation.operationId;
  return `<section class="no-script-operation" id="${escapeHtml(operationRoute(operation))}" aria-labelledby="no-script-${escapeHtml(operation.operationId)}">
<h3 id="no-script-${escapeHtml(operation.operationId)}">${escapeHtml(title)}</h3>
<p><code>${method.toUpperCase()} ${escapeHtml(path)}</code> (operationId <code>${escapeHtml(operation.operationId)}</code>)</p>
${markdown(operation.description)}
${table(`Parameters of ${title}`, ['Name', 'In', 'Type', '', 'Description'], parameterRows)}
${bodySchema ? `<h4>Request body${body.required ? ' (required)' : ''}: ${escapeHtml(typeOf(doc, bodySchema))}</h4>\n` : ''}${table(`Body fields of ${title}`, ['Field', 'Type', '', 'Description'], bodyRows)}
${table(`Responses of ${title}`, ['Status', 'Body', 'Description'], responseRows)}
<h4>With the SDK</h4>
<pre><code class="language-ts">${escapeHtml(sample)}</code></pre>
</section>`;
}

/** Every operation of a bundle in a <noscript> block, by tag in the order the document lists its tags. */
export function noscriptOperationList(api, doc) {
  const byTag = new Map((doc.tags ?? []).map((tag) => [tag.name, { name: tag.name, label: tag['x-displayName'] ?? tag.name, items: [] }]));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Operations';
      if (!byTag.has(tag)) byTag.set(tag, { name: tag, label: tag, items: [] });
      byTag.get(tag).items.push(operationHtml(api, doc, method, path, item, operation));
    }
  }
  const sections = [...byTag.values()]
    .filter(({ items }) => items.length > 0)
    .map(({ name, label, items }) => `<section id="/${escapeHtml(tagSlug(name))}">\n<h2>${escapeHtml(label)}</h2>\n${items.join('\n')}\n</section>`);
  return (
    '<noscript>\n<style>.no-script-operations{max-width:60rem;margin:2rem auto;padding:0 1.5rem;font:16px/1.5 system-ui,sans-serif}' +
    '.no-script-operations table{border-collapse:collapse;margin:.5rem 0 1rem;display:block;overflow-x:auto}' +
    '.no-script-operations caption{text-align:left;font-weight:600}' +
    '.no-script-operations th,.no-script-operations td{border:1px solid #8c959f;padding:4px 8px;text-align:left;vertical-align:top}' +
    '.no-script-operations td p{margin:0}' +
    '.no-script-operations pre{background:#f6f8fa;border:1px solid #8c959f;padding:.75rem;overflow-x:auto;white-space:pre-wrap}' +
    '.no-script-operation{border-top:1px solid #8c959f;margin-top:1.5rem}</style>\n' +
    '<section class="no-script-operations" aria-label="Operations">\n<h2>Operations</h2>\n' +
    '<p>Every operation of this API, with its parameters, body, responses and the SDK call that makes it. With JavaScript on, this page also lets you try each one.</p>\n' +
    `${sections.join('\n')}\n</section>\n</noscript>\n`
  );
}
