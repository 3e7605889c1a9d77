import type { REPORT_SCHEMAS, REPORT_VERSIONS } from '../../src/reports/layouts.js';

/** What the generator reads of a layouts module. */
export interface ReportLayouts {
  REPORT_VERSIONS: readonly string[];
  REPORT_SCHEMAS: Record<string, readonly { name: string; type: string; domain?: string }[]>;
}

/** The layouts module of a layouts.ts file (`src/reports/layouts.ts` or an edited copy), TypeScript stripped. */
export declare function loadLayouts(file: string): Promise<ReportLayouts & { REPORT_VERSIONS: typeof REPORT_VERSIONS; REPORT_SCHEMAS: typeof REPORT_SCHEMAS }>;

/** The text of generated/reports/builders.ts for a layouts module. */
export declare function reportBuildersModule(layouts: ReportLayouts): string;
