import type { SpecChange } from './classify.mjs';

/** One API's comparison with its base. */
export interface ApiComparison {
  api: string;
  /** compared: has a base; new: nothing to compare with (see reason); missing: no current bundle. */
  status: 'compared' | 'new' | 'missing';
  reason?: string;
  /** release: the committed release file openapi/releases/<api>.yaml (the default); git: the bundle at a git ref. */
  baseKind?: 'release' | 'git';
  /** The release file's path, or the git ref. */
  baseRef?: string;
  baseWhy?: string;
  /** The current bundle is, byte for byte, its base. */
  matchesBase?: boolean;
  baseVersion?: string;
  revisionVersion?: string;
  changes?: SpecChange[];
  /** For a new API: its operations. */
  operations?: string[];
}

export declare const root: string;
export declare function apiNames(cwd?: string): string[];
export declare function bundlePath(api: string): string;
export declare function compareFiles(
  basePath: string,
  revisionPath: string,
): Promise<{ baseVersion: string | undefined; revisionVersion: string | undefined; changes: SpecChange[] }>;
export declare function compareApi(api: string, options?: { baseRef?: string; cwd?: string }): Promise<ApiComparison>;
export declare function compareAll(options?: { baseRef?: string; apis?: string[]; cwd?: string }): Promise<ApiComparison[]>;
export declare function parseArgs<T extends Record<string, string | undefined>>(argv: string[], defaults: T): T;
