// The page's operations as plain HTML in a <noscript> block, for readers
// without JavaScript: Redoc's prerendered page shows the introduction and the
// tags only, and its operations appear once its script runs. One heading per
// tag, one per operation (its summary), with its method and path.

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head'];

/** Text made safe for HTML. */
export function escapeHtml(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
}

/** Every operation of a bundle in a <noscript> block, by tag in the order the document lists its tags. */
export function noscriptOperationList(doc) {
  const byTag = new Map((doc.tags ?? []).map((tag) => [tag.name, { label: tag['x-displayName'] ?? tag.name, items: [] }]));
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const tag = operation.tags?.[0] ?? 'Operations';
      if (!byTag.has(tag)) byTag.set(tag, { label: tag, items: [] });
      byTag.get(tag).items.push(`<h3>${escapeHtml(operation.summary ?? operation.operationId)}</h3>\n<p><code>${method.toUpperCase()} ${escapeHtml(path)}</code></p>`);
    }
  }
  const sections = [...byTag.values()]
    .filter(({ items }) => items.length > 0)
    .map(({ label, items }) => `<section>\n<h2>${escapeHtml(label)}</h2>\n${items.join('\n')}\n</section>`);
  return (
    '<noscript>\n<style>.no-script-operations{max-width:60rem;margin:2rem auto;padding:0 1.5rem;font:16px/1.5 system-ui,sans-serif}</style>\n' +
    '<nav class="no-script-operations" aria-label="Operations">\n<h2>Operations</h2>\n' +
    '<p>The full reference needs JavaScript; every operation of this API is listed here.</p>\n' +
    `${sections.join('\n')}\n</nav>\n</noscript>\n`
  );
}
