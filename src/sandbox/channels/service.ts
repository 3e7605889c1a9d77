/** The health check and the network list (every network in one answer). */
import type { OperationHandler } from '../types.js';
import { publicNetwork, SANDBOX_NETWORKS } from './networks.js';

export function createServiceHandlers(): Record<'getHealthCheck' | 'listNetworks', OperationHandler> {
  return {
    getHealthCheck: () => ({ status: 200, body: { status: 'ok' } }),
    listNetworks: () => ({ status: 200, body: { data: SANDBOX_NETWORKS.map(publicNetwork), has_more: false } }),
  };
}
