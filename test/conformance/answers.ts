import { join } from 'node:path';

/** Where each conformance test file writes the operations answered through Prism with no violation. */
export const CONFORMANCE_DIR = join(import.meta.dirname, '..', '..', '.tmp', 'conformance-answers');
