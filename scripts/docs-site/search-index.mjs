// The site's search index: one entry per guide, per section of a guide, per
// operation of each API reference and per command of the CLI reference, with
// the text a query is matched against. Written as a script that sets
// `DOCS_SEARCH_INDEX` (scripts/docs-site/site.js loads it on first use), so a
// page opened from the file system searches too.
import { marked } from 'marked';
import { cliAnchor } from './cli-reference.mjs';
import { operationRoute } from './routes.mjs';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];
/** How much of a text an entry keeps: enough to find it, small enough to load at once. */
const TEXT_LIMIT = 4000;

/** Markdown as plain text, one line. */
function plainText(markdown) {
  return marked
    .lexer(markdown ?? '')
    .map((token) => token.text ?? token.raw ?? '')
    .join(' ')
    .replace(/[`*_#>|{}]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The entries: `{ kind, title, where, href, text }`. */
export function searchEntries({ guides, documents, cliHelp, site }) {
  const entries = [];
  for (const guide of guides) {
    entries.push({ kind: 'guide', title: guide.title, where: 'Guide', href: `${guide.slug}.html`, text: plainText(guide.markdown).slice(0, TEXT_LIMIT) });
    for (const section of guide.sections) {
      if (section.title === guide.title) continue;
      entries.push({ kind: 'guide', title: section.title, where: `Guide: ${guide.title}`, href: `${guide.slug}.html#${section.anchor}`, text: '' });
    }
  }
  for (const reference of site.references) {
    const api = reference.href.replace(/\.html$/, '');
    const doc = documents[api];
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      for (const method of METHODS) {
        const operation = item[method];
        if (!operation) continue;
        entries.push({
          kind: 'operation',
          title: operation.summary ?? operation.operationId,
          where: `${reference.title}: ${method.toUpperCase()} ${path}`,
          href: `${reference.href}#${operationRoute(operation)}`,
          text: `${operation.operationId} ${plainText(operation.description).slice(0, 600)}`,
        });
      }
    }
  }
  for (const api of cliHelp.apis) {
    for (const operation of api.operations) {
      entries.push({
        kind: 'command',
        title: `service-sdk ${api.name} ${operation.name}`,
        where: `CLI reference: ${operation.summary}`,
        href: `${site.cli.href}#${cliAnchor(api.name, operation.name)}`,
        text: operation.id,
      });
    }
  }
  return entries;
}

export function searchIndexScript(input) {
  return `globalThis.DOCS_SEARCH_INDEX = ${JSON.stringify(searchEntries(input)).replace(/</g, '\\u003c')};\n`;
}
