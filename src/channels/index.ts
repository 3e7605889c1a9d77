export * from './client.js';
export * from './errors.js';
export * from './paginate.js';
export * from './operations.js';
export * from './queries.js';
export * from './watchers.js';
export * from './events.js';
export * from '../core/public.js';
