// "Try it" beside every operation of a reference page (Redoc stays the
// reference; this script only adds to it). The docs build bundles this file
// into the page, after the console's data (`#try-it-data`, made by
// console-data.mjs). Each operation's section gets a "Try it" button; it
// opens a panel with the parameters and the body pre-filled from the spec's
// example, editable. "Send" runs the request against the SDK's sandbox inside
// the page (sandbox-entry.ts, loaded on the first "Try it" only), and shows
// the status line, the headers and the body as the sandbox answered. The
// sandbox lives for the visit and is shared by every operation of the page;
// "Reset sandbox" puts it back to its seed. The panel also shows the SDK call
// that makes the same request, with the values typed (Redoc's own sample is
// hidden while the panel is open: one sample at a time). The IDs a form
// starts with are ones the page's sandbox has: those of the last answer that
// named them (a get after a create uses the created ID), or else the first
// of the list they belong to. After Send, focus moves to the answer's status
// line. Without JavaScript, none of this exists and the page is Redoc's.
import { sdkCallSample } from '../lib/sdk-call.mjs';
import { fieldText, prefilled, requestFor, sendable, typedValue } from './request.mjs';

const data = JSON.parse(document.getElementById('try-it-data')?.textContent ?? 'null');
/** Operations by the last part of their Redoc section id (`<tag>/<operationid>`, lowercased). */
const operations = new Map((data?.operations ?? []).map((operation) => [operation.id.toLowerCase(), operation]));

const REASONS = {
  200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized',
  403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed', 409: 'Conflict', 410: 'Gone', 413: 'Content Too Large',
  415: 'Unsupported Media Type', 422: 'Unprocessable Content', 429: 'Too Many Requests', 500: 'Internal Server Error',
  502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout',
};

let sandboxLoading;
/** The page's sandbox, loaded once (a classic script, so a page opened as a file loads it too). */
function pageSandbox() {
  sandboxLoading ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = data.sandboxScript;
    script.onload = () => resolve(globalThis.TryItSandbox.start());
    script.onerror = () => {
      sandboxLoading = undefined;
      reject(new Error(`could not load ${data.sandboxScript}, the sandbox's script (it sits beside this page)`));
    };
    document.head.append(script);
  });
  return sandboxLoading;
}

/** IDs the page's sandbox has answered with, by field name (`channel_id`): the latest wins. */
const knownIds = new Map();

/** Remembers the IDs an answer names: a resource's own (`{ channel_id, … }`), or a list's first item's when none is known yet. */
function rememberIds(body) {
  const take = (object, overwrite) => {
    if (object === null || typeof object !== 'object' || Array.isArray(object)) return;
    for (const [name, value] of Object.entries(object)) {
      if ((typeof value === 'string' || typeof value === 'number') && /(_id|Id)$/.test(name) && (overwrite || !knownIds.has(name))) knownIds.set(name, String(value));
    }
  };
  if (body === null || typeof body !== 'object') return;
  const list = Object.values(body).find((value) => Array.isArray(value));
  if (list !== undefined) take(list[0], false);
  else take(body, true);
}

/** Sends a GET the page's sandbox answers, with the page's credentials; the parsed body of a 2xx, or undefined. */
async function sandboxGet(sandbox, url) {
  const answer = await sandbox.send({ method: 'GET', url: sendable(url), headers: [], body: undefined, auth: data.auth });
  if (answer.status < 200 || answer.status > 299) return undefined;
  try {
    return JSON.parse(answer.body);
  } catch {
    return undefined;
  }
}

/**
 * An ID the sandbox has for a path parameter: a known one, or the first item
 * of the list the parameter's resource belongs to (`/channels` for
 * `/channels/{channel_id}`), the list's own parameters filled the same way.
 */
async function existingId(sandbox, operation, name) {
  if (knownIds.has(name)) return knownIds.get(name);
  const at = operation.path.indexOf(`/{${name}}`);
  if (at < 0) return undefined;
  const listPath = operation.path.slice(0, at);
  const list = data.operations.find((candidate) => candidate.method === 'GET' && candidate.path === listPath);
  if (list === undefined) return undefined;
  let path = listPath;
  for (const [, parent] of listPath.matchAll(/\{([^}]+)\}/g)) {
    const id = await existingId(sandbox, list, parent);
    if (id === undefined) return undefined;
    path = path.replace(`{${parent}}`, encodeURIComponent(id));
  }
  const body = await sandboxGet(sandbox, `${list.baseUrl}${path}`);
  const items = body && Object.values(body).find((value) => Array.isArray(value));
  const id = items?.[0]?.[name];
  if (typeof id === 'string' || typeof id === 'number') knownIds.set(name, String(id));
  return knownIds.get(name);
}

/** Refreshes the IDs of every open panel (after an answer named new ones). */
const openPanels = new Set();

/** The operation that creates what a path parameter names (`createChannel` for `/channels/{channel_id}`), if the page has it. */
function creatorOf(operation, name) {
  const at = operation.path.indexOf(`/{${name}}`);
  return at < 0 ? undefined : data.operations.find((candidate) => candidate.method === 'POST' && candidate.path === operation.path.slice(0, at));
}

/**
 * Fills a form's path parameters with IDs the sandbox has, unless the reader
 * has typed there. Where the sandbox has none yet, the field is left empty
 * and says which operation makes one (the spec's example ID would only
 * answer 404).
 */
async function fillIds(operation, form) {
  const sandbox = await pageSandbox();
  for (const field of form.querySelectorAll('[data-parameter^="path:"]')) {
    if (field.dataset.typed === 'true') continue;
    const name = field.dataset.parameter.slice('path:'.length);
    const id = await existingId(sandbox, operation, name);
    const creator = creatorOf(operation, name);
    const value = id ?? (creator === undefined ? field.value : '');
    if (id === undefined && creator !== undefined) field.placeholder = `none in the sandbox yet: run ${creator.id} first`;
    if (field.value !== value) {
      field.value = value;
      form.dispatchEvent(new Event('input'));
    }
  }
}

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

/** The request the form describes (request.mjs), from its fields' texts. */
function requestOf(operation, form) {
  const texts = Object.fromEntries([...form.querySelectorAll('[data-parameter]')].map((field) => [field.dataset.parameter, field.value]));
  return requestFor(operation, texts, form.querySelector('[data-body]')?.value);
}

/** The SDK call that makes the same request, with the reader's values. */
function sampleOf(operation, form) {
  if (operation.sample !== undefined) return operation.sample;
  const { values, body } = requestOf(operation, form);
  const params = {};
  for (const { parameter, text } of values) (params[parameter.in] ??= {})[parameter.name] = typedValue(parameter, text);
  let parsed;
  if (body !== undefined) {
    try {
      parsed = JSON.parse(body);
    } catch {
      return `// The body is not valid JSON: the SDK call needs an object.\n${sdkCallSample(data.api, operation.method, operation.path, { params })}`;
    }
  }
  return sdkCallSample(data.api, operation.method, operation.path, { params, body: parsed });
}

/** The answer as the reader sees it: the status line, the headers, the body (JSON indented, as sent otherwise). */
function showAnswer(output, answer) {
  const reason = answer.statusText || REASONS[answer.status] || '';
  let body = answer.body;
  try {
    body = JSON.stringify(JSON.parse(answer.body), null, 2);
  } catch {
    // Not JSON (or empty): shown exactly as it came.
  }
  output.replaceChildren(
    element('p', { class: `try-it-status try-it-status-${String(answer.status)[0]}xx`, tabindex: '-1', text: `${answer.status} ${reason}`.trim() }),
    element('h5', { text: 'Headers' }),
    element('pre', { class: 'try-it-headers', tabindex: '0', text: answer.headers.map(([name, value]) => `${name}: ${value}`).join('\n') }),
    element('h5', { text: 'Body' }),
    element('pre', { class: 'try-it-body', tabindex: '0', text: body === '' ? '(empty)' : body }),
  );
}

function showFailure(output, error) {
  output.replaceChildren(element('p', { class: 'try-it-status try-it-status-failed', tabindex: '-1', text: `Not sent: ${error?.message ?? String(error)}` }));
}

function panelFor(operation) {
  const form = element('form', { class: 'try-it-form' });
  const first = prefilled(operation);
  for (const parameter of operation.parameters) {
    const id = `try-it-${operation.id}-${parameter.in}-${parameter.name}`;
    form.append(
      element(
        'div',
        { class: 'try-it-field' },
        element('label', { for: id, text: `${parameter.name} (${parameter.in}${parameter.required ? ', required' : ''})` }),
        element('input', {
          id,
          'data-parameter': `${parameter.in}:${parameter.name}`,
          value: first.texts[`${parameter.in}:${parameter.name}`],
          placeholder: parameter.example === undefined ? '' : `e.g. ${fieldText(parameter.example)}`,
          spellcheck: 'false',
          autocomplete: 'off',
        }),
      ),
    );
  }
  if (operation.body !== undefined) {
    const id = `try-it-${operation.id}-body`;
    const body = element('textarea', { id, 'data-body': '', rows: '8', spellcheck: 'false' });
    body.value = first.bodyText;
    form.append(element('div', { class: 'try-it-field' }, element('label', { for: id, text: 'Body (JSON)' }), body));
  }
  const send = element('button', { type: 'submit', class: 'try-it-send', text: 'Send' });
  const reset = element('button', { type: 'button', class: 'try-it-reset', text: 'Reset sandbox' });
  const output = element('div', { class: 'try-it-answer', 'aria-live': 'polite' });
  // Focusable: a block that scrolls must be reachable by keyboard.
  const sample = element('pre', { class: 'try-it-sample', tabindex: '0' });
  const note = element('p', {
    class: 'try-it-note',
    text: `${operation.method} ${operation.baseUrl}${operation.path}, answered by the SDK's sandbox in this page: nothing leaves your browser, and the sandbox's made-up credentials sign it. Its data lasts for this visit.`,
  });
  form.append(element('div', { class: 'try-it-actions' }, send, reset));
  const panel = element(
    'div',
    { class: 'try-it-panel', role: 'region', 'aria-label': `Try it: ${operation.summary}`, 'data-operation': operation.id },
    note,
    form,
    output,
    element('h5', { text: 'The same call with the SDK' }),
    sample,
  );
  const refreshSample = () => (sample.textContent = sampleOf(operation, form));
  form.addEventListener('input', (event) => {
    // A field the reader typed in keeps what they typed; the others follow the sandbox's IDs.
    if (event.isTrusted && event.target?.dataset?.parameter) event.target.dataset.typed = 'true';
    refreshSample();
  });
  refreshSample();
  let sending = false;
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (sending) return;
    // Not `disabled`: a disabled button loses the focus (to <body>); aria-disabled keeps it where the reader is.
    sending = true;
    send.setAttribute('aria-disabled', 'true');
    output.replaceChildren(element('p', { class: 'try-it-status', text: 'Sending…' }));
    try {
      await idsFilled; // a Send right after opening goes with the sandbox's IDs
      const { method, url, headers, body } = requestOf(operation, form);
      const sandbox = await pageSandbox();
      const answer = await sandbox.send({ method, url, headers, body, auth: data.auth });
      showAnswer(output, answer);
      if (answer.status >= 200 && answer.status <= 299) {
        try {
          rememberIds(JSON.parse(answer.body));
        } catch {
          // Not JSON: no IDs to learn.
        }
        for (const other of openPanels) if (other !== panel) other.fillIds();
      }
    } catch (error) {
      showFailure(output, error);
    } finally {
      sending = false;
      send.removeAttribute('aria-disabled');
      // The answer is what the reader wants next: focus goes to its status line, inside the panel.
      output.querySelector('.try-it-status')?.focus();
    }
  });
  reset.addEventListener('click', async () => {
    try {
      (await pageSandbox()).reset();
      output.replaceChildren(element('p', { class: 'try-it-status', text: 'The sandbox is back to its first state.' }));
    } catch (error) {
      showFailure(output, error);
    }
  });
  let idsFilled = Promise.resolve();
  panel.fillIds = () => (idsFilled = fillIds(operation, form).catch(() => undefined));
  return panel;
}

/** Whether React has taken over a node: changing the page before would break Redoc's hydration. */
const hydrated = (node) => Object.keys(node).some((key) => key.startsWith('__reactFiber$'));

/** Adds the button (and, once opened, the panel) to every operation section on the page that has none yet. */
function decorate() {
  for (const section of document.querySelectorAll('[data-item-kind="httpItem"]')) {
    if (section.querySelector('.try-it-button') || !hydrated(section)) continue;
    const operation = operations.get(section.id.split('/').pop());
    const heading = section.querySelector('h1, h2, h3');
    if (!operation || !heading?.parentElement) continue;
    // Named for its operation ("Try it: createChannel"): a list of buttons all called "Try it" tells a screen reader nothing.
    // (Its name starts with the text it shows, so speech input's "click Try it" finds it too.)
    const button = element('button', { type: 'button', class: 'try-it-button', 'aria-expanded': 'false', 'aria-label': `Try it: ${operation.id}`, text: 'Try it' });
    let panel;
    let hiddenSample;
    button.addEventListener('click', () => {
      panel ??= panelFor(operation);
      const open = !panel.isConnected;
      // In the right-hand column of the request, above its sample: where the code is, level with the
      // request's reference text. (The title's row has a right-hand column too, empty: a panel there
      // would push the reference text down and leave a blank column beside the panel.)
      const columns = [...section.querySelectorAll('[data-testid="right-panel"]')];
      const column = columns.find((candidate) => candidate.childElementCount > 0) ?? columns[0];
      if (open && column) column.prepend(panel);
      else if (open) heading.parentElement.parentElement.after(panel);
      else panel.remove();
      // One SDK sample at a time: the panel's (it follows what is typed) replaces Redoc's request sample below it.
      if (open && panel.nextElementSibling?.matches('[data-component-name="Panel/Panel"]')) {
        hiddenSample = panel.nextElementSibling;
        hiddenSample.hidden = true;
      } else if (!open && hiddenSample) {
        hiddenSample.hidden = false;
        hiddenSample = undefined;
      }
      button.setAttribute('aria-expanded', String(open));
      if (open) {
        openPanels.add(panel);
        panel.fillIds(); // loads the sandbox now; Send reports a failure to load
      } else openPanels.delete(panel);
    });
    heading.parentElement.after(button);
  }
}

/**
 * A page opened at an operation (`#/<tag>/<operationid>`) puts the keyboard
 * there: its heading takes the focus once Redoc shows it, so the next Tabs
 * reach its anchor and its "Try it", not the top of the page.
 */
function focusDeepLink() {
  const route = decodeURIComponent(location.hash.replace(/^#\/?/, ''));
  if (!route.includes('/')) return true;
  const section = document.getElementById(route);
  const heading = section?.querySelector('h1, h2, h3');
  if (!heading || !section.querySelector('.try-it-button')) return false;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
  return true;
}

if (data !== null) {
  let deepLinkFocused = false;
  addEventListener('hashchange', () => (deepLinkFocused = false));
  // Redoc hydrates its prerendered page, and mounts sections as they near the
  // viewport (and drops far ones): decorate whatever appears.
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      decorate();
      if (!deepLinkFocused) deepLinkFocused = focusDeepLink();
    });
  };
  new MutationObserver(schedule).observe(document.documentElement, { childList: true, subtree: true });
  // Hydration changes no nodes: look again for a while, in case a section was
  // there before React took it over (Redoc usually mounts them after).
  let looks = 0;
  const waitForHydration = setInterval(() => {
    schedule();
    looks += 1;
    if (looks >= 50 || document.querySelector('.try-it-button')) clearInterval(waitForHydration);
  }, 200);
}
