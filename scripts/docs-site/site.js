// The docs site's script, on every page (scripts/docs-site/layout.mjs):
//  - the search box: the index (search-index.js, beside the pages, made by
//    the build from the guides, the API references and the CLI reference)
//    is loaded on first use, and every word typed must appear in a result;
//  - on a reference page, Redoc's links (`href="/wallets"`, which only its
//    own click handler understands) become the `#/wallets` routes it
//    follows, so a link opened in a new tab or copied lands on the same
//    section. The build rewrites the links of the page as served; this
//    rewrites those Redoc adds while the reader moves around.
(() => {
  const script = document.currentScript;
  const input = document.getElementById('site-search-input');
  const results = document.getElementById('site-search-results');
  const status = document.getElementById('site-search-status');
  let entries;
  let loading;

  function loadIndex() {
    loading ??= new Promise((resolve, reject) => {
      const tag = document.createElement('script');
      tag.src = script?.dataset.searchIndex ?? 'search-index.js';
      tag.onload = () => resolve((entries = globalThis.DOCS_SEARCH_INDEX ?? []));
      tag.onerror = () => {
        loading = undefined;
        reject(new Error('the search index did not load'));
      };
      document.head.append(tag);
    });
    return loading;
  }

  /** Entries that hold every word of the query, titles matching first. */
  function search(query) {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length === 0) return [];
    const scored = [];
    for (const entry of entries) {
      const title = entry.title.toLowerCase();
      const text = `${title} ${entry.where.toLowerCase()} ${entry.text.toLowerCase()}`;
      if (!words.every((word) => text.includes(word))) continue;
      scored.push({ entry, score: words.filter((word) => title.includes(word)).length * 10 + (entry.kind === 'guide' ? 1 : 0) });
    }
    return scored.sort((a, b) => b.score - a.score).slice(0, 12).map(({ entry }) => entry);
  }

  function show(query) {
    const found = search(query);
    results.replaceChildren(
      ...found.map((entry) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = entry.href;
        link.textContent = entry.title;
        const where = document.createElement('span');
        where.className = 'site-search-where';
        where.textContent = entry.where;
        link.append(where);
        item.append(link);
        return item;
      }),
    );
    results.hidden = query.trim() === '';
    status.textContent = query.trim() === '' ? '' : `${found.length === 0 ? 'No' : found.length} result${found.length === 1 ? '' : 's'}`;
    if (!results.hidden && found.length === 0) {
      const none = document.createElement('li');
      none.textContent = 'Nothing found';
      none.style.padding = '6px 14px';
      results.append(none);
    }
  }

  if (input && results && status) {
    input.addEventListener('focus', () => loadIndex().catch(() => undefined));
    input.addEventListener('input', async () => {
      try {
        await loadIndex();
        show(input.value);
      } catch (error) {
        status.textContent = error.message;
      }
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'ArrowDown') {
        results.querySelector('a')?.focus();
        event.preventDefault();
      } else if (event.key === 'Escape') {
        input.value = '';
        show('');
      }
    });
    results.addEventListener('keydown', (event) => {
      const links = [...results.querySelectorAll('a')];
      const at = links.indexOf(document.activeElement);
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        const next = event.key === 'ArrowDown' ? at + 1 : at - 1;
        (next < 0 ? input : links[Math.min(next, links.length - 1)]).focus();
        event.preventDefault();
      } else if (event.key === 'Escape') {
        input.focus();
      }
    });
  }

  // A menu of the header closes when the reader clicks elsewhere or presses Escape.
  document.addEventListener('click', (event) => {
    for (const menu of document.querySelectorAll('.site-menu details[open]')) if (!menu.contains(event.target)) menu.open = false;
    if (results && !event.target.closest?.('.site-search')) results.hidden = true;
  });
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    for (const menu of document.querySelectorAll('.site-menu details[open]')) {
      menu.open = false;
      menu.querySelector('summary')?.focus();
    }
  });

  // Redoc's routes as links that open where they point.
  const redoc = document.getElementById('redoc');
  if (redoc) {
    const fix = () => {
      for (const link of redoc.querySelectorAll('a[href^="/"]')) link.setAttribute('href', `#${link.getAttribute('href')}`);
      // A button Redoc names by its kind ("Example") while it shows its choice: its name says both, as a reader hears and sees it.
      for (const button of redoc.querySelectorAll('button[aria-label]')) {
        const label = button.getAttribute('aria-label');
        const text = button.textContent.replace(/\s+/g, ' ').trim();
        if (text !== '' && !label.toLowerCase().includes(text.toLowerCase())) button.setAttribute('aria-label', `${label}: ${text}`);
      }
    };
    fix();
    new MutationObserver(fix).observe(redoc, { childList: true, subtree: true, attributes: true, attributeFilter: ['href', 'aria-label'] });
  }
})();
