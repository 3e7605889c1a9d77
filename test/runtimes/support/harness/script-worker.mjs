// workerd in script mode (a service worker, no modules): the same checks as worker.mjs.
import worker from './worker.mjs';

addEventListener('fetch', (event) => event.respondWith(worker.fetch(event.request)));
