// The docs site's guides, made from the README at build time: the README is
// the user documentation, so a guide is a part of it, never a second copy.
// The README is cut into parts at its headings (a heading's part holds its
// text and its sub-headings) and at its lead-ins (a paragraph or list item
// that opens with a bold label, such as "**Signing a draft.**"). GUIDES picks
// parts for each page by pattern; a part picked by one guide but sitting
// inside another's leaves a link in its place there. A `##` section no guide
// picks becomes a guide of its own (titled by its heading), so a section added
// to the README shows up without a change here; SKIPPED ones are for
// maintainers.
import { marked } from 'marked';

const heading = (pattern) => ({ kind: 'heading', pattern });
const lead = (pattern) => ({ kind: 'lead', pattern });

/** The guides, in the order the site lists them. */
export const GUIDES = [
  { slug: 'first-calls', title: 'First calls', take: [heading(/^first calls$/i)] },
  { slug: 'getting-started-channels', title: 'Getting started: channels', take: [heading(/^channels$/i)] },
  { slug: 'draft-sign-finalize', title: 'Draft → sign → finalize', take: [lead(/draft/i)] },
  { slug: 'getting-started-streams', title: 'Getting started: streams', take: [heading(/^streams$/i)] },
  { slug: 'getting-started-policy', title: 'Getting started: policy', take: [heading(/^policy$/i)] },
  { slug: 'pagination-and-waits', title: 'Pagination and waits', take: [heading(/pagination|waits/i)] },
  { slug: 'live-report-stream', title: 'The live report stream', take: [heading(/live report stream/i)] },
  {
    slug: 'verifying-reports',
    title: 'Verifying reports',
    take: [heading(/verif|genuine/i), lead(/verif/i)],
  },
  { slug: 'errors-and-retries', title: 'Errors and retries', take: [heading(/^errors$/i), heading(/retries/i)] },
  { slug: 'testing-offline', title: 'Testing offline: the sandbox and MSW', take: [heading(/offline|sandbox|\bmsw\b/i)] },
  { slug: 'command-line', title: 'The command line', take: [heading(/command line|\bcli\b/i)] },
];

/** README sections that are not for the site's readers. */
const SKIPPED = [/^developing/i];

/** The repository, for the README's links to files that are not on the site. */
const REPOSITORY = 'https://github.com/ourteam/service-sdk/blob/main/';

/** A heading's anchor as GitHub makes it (the README's own `#…` links use these). */
export function anchorOf(text) {
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** A heading's or label's text without its Markdown (backticks, emphasis, links). */
function plain(markdown) {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]/g, '')
    .trim();
}

const LEAD = /^(?:[-*]\s+)?\*\*([^*]+?)[.:]?\*\*/;

/**
 * The README as a tree of parts. A heading part: `{ kind: 'heading', depth,
 * title, anchor, items }`, where each item is a Markdown text or a child
 * part; a lead part: `{ kind: 'lead', title, anchor, items }`. The text before
 * the first `##` is the introduction.
 */
export function readmeParts(markdown) {
  const tokens = marked.lexer(markdown);
  const top = { kind: 'root', depth: 1, items: [] };
  const stack = [top];
  let lead;
  const append = (raw) => {
    const target = lead ?? stack.at(-1);
    target.items.push(raw);
  };
  const seen = new Map();
  const uniqueAnchor = (text) => {
    const base = anchorOf(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
  for (const token of tokens) {
    if (token.type === 'heading' && token.depth >= 2) {
      lead = undefined;
      while (stack.at(-1).depth >= token.depth) stack.pop();
      const part = { kind: 'heading', depth: token.depth, title: plain(token.text), source: token.text, anchor: uniqueAnchor(token.text), items: [] };
      stack.at(-1).items.push(part);
      stack.push(part);
    } else if (token.type === 'heading') {
      continue; // the package's name: the site has its own title
    } else if (token.type === 'paragraph' && LEAD.test(token.raw)) {
      lead = { kind: 'lead', title: plain(LEAD.exec(token.raw)[1]), anchor: uniqueAnchor(plain(LEAD.exec(token.raw)[1])), items: [token.raw] };
      stack.at(-1).items.push(lead);
    } else if (token.type === 'list' && token.items.length > 0 && token.items.every((item) => LEAD.test(item.raw))) {
      // A list of labelled items (the command line's "**Commands:**", "**Verifying reports:**", …): one part each.
      lead = undefined;
      const bullet = token.ordered ? '1.' : '-';
      for (const item of token.items) {
        const title = plain(LEAD.exec(item.raw)[1]);
        const raw = item.raw.trimEnd().replace(/^[-*+]|^\d+[.)]/, bullet);
        stack.at(-1).items.push({ kind: 'lead', listItem: true, title, anchor: uniqueAnchor(title), items: [`${raw}\n`] });
      }
      stack.at(-1).items.push('\n');
    } else {
      append(token.raw);
    }
  }
  return top;
}

function* walk(part) {
  for (const item of part.items) {
    if (typeof item === 'string') continue;
    yield item;
    yield* walk(item);
  }
}

/**
 * The guides of a README: `[{ slug, title, summary, sections, markdown }]`,
 * in GUIDES' order then the README's, and the introduction's Markdown.
 * `markdown` is the page's own text (links between pages rewritten to
 * the site's pages); `sections` lists its headings and lead-ins for the
 * search index.
 */
export function guidesOf(readme) {
  const root = readmeParts(readme);
  const parts = [...walk(root)];
  const owner = new Map();
  // Leads first, then headings from the deepest: the most specific pick wins.
  const bySpecificity = [...parts].sort((a, b) => (b.kind === 'lead' ? 9 : b.depth) - (a.kind === 'lead' ? 9 : a.depth));
  for (const part of bySpecificity) {
    const guide = GUIDES.find(({ take }) => take.some((rule) => rule.kind === part.kind && rule.pattern.test(part.title)));
    if (guide !== undefined && ![...owner.keys()].some((taken) => owner.get(taken) === guide && [...walk(taken)].includes(part))) {
      owner.set(part, guide);
    }
  }
  const skipped = new Set();
  const guides = [...GUIDES.map((guide) => ({ ...guide, parts: [] }))];
  for (const part of root.items) {
    if (typeof part === 'string' || owner.has(part)) continue;
    if (SKIPPED.some((pattern) => pattern.test(part.title))) {
      skipped.add(part);
      continue;
    }
    const guide = { slug: anchorOf(part.title), title: part.title, take: [] };
    owner.set(part, guide);
    guides.push({ ...guide, parts: [] });
  }
  const pageOf = (guide) => guides.find((candidate) => candidate.slug === guide.slug);
  // Each owned part, in README order, unless its nearest owned ancestor belongs to the same guide (it is printed with it).
  const ownedAncestor = (part, guide, ancestors) => ancestors.findLast((ancestor) => owner.has(ancestor)) !== undefined && owner.get(ancestors.findLast((ancestor) => owner.has(ancestor))) === guide;
  const visit = (part, ancestors) => {
    for (const item of part.items) {
      if (typeof item === 'string') continue;
      if (skipped.has(item)) continue;
      const guide = owner.get(item);
      if (guide !== undefined && !ownedAncestor(item, guide, ancestors)) pageOf(guide).parts.push(item);
      visit(item, [...ancestors, item]);
    }
  };
  visit(root, []);

  // A part and what is printed with it: its descendants, but not those another guide shows.
  const shownWith = (part, guide) => [
    part,
    ...part.items.filter((item) => typeof item !== 'string' && !skipped.has(item) && (owner.get(item) === undefined || pageOf(owner.get(item)) === guide)).flatMap((item) => shownWith(item, guide)),
  ];
  // Where each anchor ends up: the README's `#…` links point at the page that shows it.
  const pageOfAnchor = new Map();
  for (const guide of guides) for (const part of guide.parts) for (const shown of shownWith(part, guide)) pageOfAnchor.set(shown.anchor, guide.slug);
  const localLinks = (text) =>
    text.replace(/\]\(([^)\s]+)\)/g, (whole, target) => {
      if (target.startsWith('#')) {
        const slug = pageOfAnchor.get(target.slice(1));
        return slug === undefined ? whole : `](${slug}.html${target})`;
      }
      if (/^[\w.-]+\.md$/i.test(target)) return `](${REPOSITORY}${target})`;
      return whole;
    });

  const render = (part, guide, topDepth) => {
    const out = [];
    if (part.kind === 'heading') out.push(`${'#'.repeat(Math.min(6, part.depth - topDepth + 2))} ${part.source} {#${part.anchor}}\n\n`);
    else if (!part.listItem) out.push(`<a id="${part.anchor}"></a>\n\n`);
    for (const item of part.items) {
      if (typeof item === 'string') {
        out.push(item);
        continue;
      }
      if (skipped.has(item)) continue;
      const elsewhere = owner.get(item);
      if (elsewhere !== undefined && pageOf(elsewhere) !== guide) {
        out.push(`\n\n→ ${item.title}: see [${pageOf(elsewhere).title}](${pageOf(elsewhere).slug}.html#${item.anchor}).\n\n`);
      } else {
        out.push(render(item, guide, topDepth));
      }
    }
    return out.join('');
  };

  const introduction = root.items.filter((item) => typeof item === 'string').join('');
  return {
    introduction: localLinks(introduction),
    guides: guides
      .filter((guide) => guide.parts.length > 0)
      .map((guide) => {
        const topDepth = Math.min(...guide.parts.map((part) => (part.kind === 'heading' ? part.depth : 9)));
        const markdown = localLinks(guide.parts.map((part) => render(part, guide, topDepth === 9 ? 2 : topDepth)).join('\n\n'));
        const sections = guide.parts.flatMap((part) => shownWith(part, guide));
        return {
          slug: guide.slug,
          title: guide.title,
          summary: summaryOf(markdown),
          markdown,
          sections: sections.map((part) => ({ title: part.title, anchor: part.anchor })),
        };
      }),
  };
}

/** The first sentence of a guide's prose, as plain text (for the index's list and the page's description). */
function summaryOf(markdown) {
  const prose = marked
    .lexer(markdown)
    .find((token) => token.type === 'paragraph' && !/^(<a |→)/.test(token.raw) && !/^\*\*[^*]+\*\*\s*$/.test(token.raw));
  const text = plain(prose?.text ?? '').replace(/\s+/g, ' ');
  return /^.*?[.!?:](?=\s|$)/.exec(text)?.[0] ?? text;
}

/** A guide's Markdown as HTML: headings keep their README anchors (`{#anchor}`). */
export function guideHtml(markdown) {
  const renderer = new marked.Renderer();
  renderer.heading = (text, level) => {
    const match = /\s*\{#([^}]+)\}\s*$/.exec(text);
    const id = match ? match[1] : anchorOf(text.replace(/<[^>]+>/g, ''));
    const label = match ? text.slice(0, match.index) : text;
    return `<h${level} id="${id}">${label} <a class="anchor" href="#${id}" aria-label="Link to this section">#</a></h${level}>\n`;
  };
  renderer.code = (code, language) => {
    const lang = (language ?? '').trim().split(/\s/)[0];
    const escaped = code.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]);
    return `<pre tabindex="0"><code${lang ? ` class="language-${lang}"` : ''}>${escaped}</code></pre>\n`;
  };
  return marked.parse(markdown, { renderer, gfm: true, mangle: false, headerIds: false });
}
