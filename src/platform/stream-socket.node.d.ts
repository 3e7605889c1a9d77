export { runtimeSocket } from './stream-socket.js';
