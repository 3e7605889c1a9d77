import type { RedoclyReport } from './classify.mjs';
export declare function redoclyDiff(basePath: string, revisionPath: string): Promise<RedoclyReport>;
