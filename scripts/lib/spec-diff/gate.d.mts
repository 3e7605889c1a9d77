import type { SpecChange } from './classify.mjs';
import type { ApiComparison } from './compare.mjs';

export interface GateVerdict {
  ok: boolean;
  /** Why it fails, each naming the offending changes. */
  problems: string[];
  notes: string[];
}
export declare function parseVersion(version: unknown): { major: number; minor: number; patch: number; prerelease: string | undefined } | undefined;
export declare function compareVersions(a: string, b: string): number;
export declare function versionBump(from: string, to: string): 'major' | 'minor' | 'patch' | 'none' | 'down';
export declare function listOperations(operations: string[], quote?: (label: string) => string): string;
export declare function describeChange(change: SpecChange): string;
export declare function gate(result: ApiComparison, options?: { released?: boolean }): GateVerdict;
