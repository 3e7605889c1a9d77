export * from './client.js';
export * from './evaluation.js';
export * from './paginate.js';
export * from '../core/public.js';
