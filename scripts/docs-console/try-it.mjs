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
// that makes the same request, with the values typed. Without JavaScript,
// none of this exists and the page is Redoc's.
import { sdkCallSample } from '../lib/sdk-call.mjs';
import { fieldText, prefilled, requestFor, typedValue } from './request.mjs';

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
    element('p', { class: `try-it-status try-it-status-${String(answer.status)[0]}xx`, text: `${answer.status} ${reason}`.trim() }),
    element('h5', { text: 'Headers' }),
    element('pre', { class: 'try-it-headers', text: answer.headers.map(([name, value]) => `${name}: ${value}`).join('\n') }),
    element('h5', { text: 'Body' }),
    element('pre', { class: 'try-it-body', text: body === '' ? '(empty)' : body }),
  );
}

function showFailure(output, error) {
  output.replaceChildren(element('p', { class: 'try-it-status try-it-status-failed', text: `Not sent: ${error?.message ?? String(error)}` }));
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
  const sample = element('pre', { class: 'try-it-sample' });
  const note = element('p', {
    class: 'try-it-note',
    text: `${operation.method} ${operation.baseUrl}${operation.path}, answered by the SDK's sandbox in this page: nothing leaves your browser, and the sandbox's made-up credentials sign it. Its data lasts for this visit.`,
  });
  form.append(element('div', { class: 'try-it-actions' }, send, reset));
  const panel = element(
    'div',
    { class: 'try-it-panel', role: 'region', 'aria-label': `Try it: ${operation.summary}` },
    note,
    form,
    output,
    element('h5', { text: 'The same call with the SDK' }),
    sample,
  );
  const refreshSample = () => (sample.textContent = sampleOf(operation, form));
  form.addEventListener('input', refreshSample);
  refreshSample();
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    send.disabled = true;
    output.replaceChildren(element('p', { class: 'try-it-status', text: 'Sending…' }));
    try {
      const { method, url, headers, body } = requestOf(operation, form);
      const sandbox = await pageSandbox();
      showAnswer(output, await sandbox.send({ method, url, headers, body, auth: data.auth }));
    } catch (error) {
      showFailure(output, error);
    } finally {
      send.disabled = false;
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
    const button = element('button', { type: 'button', class: 'try-it-button', 'aria-expanded': 'false', text: 'Try it' });
    let panel;
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
      button.setAttribute('aria-expanded', String(open));
      if (open) pageSandbox().catch(() => undefined); // start loading now; Send reports a failure
    });
    heading.parentElement.after(button);
  }
}

if (data !== null) {
  // Redoc hydrates its prerendered page, and mounts sections as they near the
  // viewport (and drops far ones): decorate whatever appears.
  let scheduled = false;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    requestAnimationFrame(() => {
      scheduled = false;
      decorate();
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
