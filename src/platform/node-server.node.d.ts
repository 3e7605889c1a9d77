export { loadNodeServer } from './node-server.js';
