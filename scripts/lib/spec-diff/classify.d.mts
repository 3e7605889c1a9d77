export type Category = 'breaking' | 'dangerous' | 'deprecated' | 'removed' | 'added' | 'changed';
export type Impact = 'major' | 'minor' | 'patch';

/** One change as our users see it. */
export interface SpecChange {
  category: Category;
  /** The version bump it needs. */
  impact: Impact;
  /** Our rule that decided it, or Redocly's rule ids, if any. */
  rule: string | undefined;
  /** "GET /channels (listChannels)"...: where Redocly found the change first, then every other operation using the changed component. */
  operations: string[];
  /** "`Channel.created_at`", "query parameter `status`", "request body `name`"... */
  field: string;
  /** JSON pointer in the bundle (base for removals, else current). */
  pointer: string;
  message: string;
  /** Only descriptions or examples changed. */
  documentation: boolean;
}

/** A change as `redocly diff --format json` reports it (the fields we read). */
export interface RedoclyChange {
  path: string;
  typeName?: string;
  kind: 'added' | 'removed' | 'modified';
  impact: Impact;
  property?: string;
  verdicts: { ruleId: string; impact: Impact; message: string; location?: { file?: string; pointer?: string } }[];
  base?: { file?: string; pointer?: string; value?: unknown };
  revision?: { file?: string; pointer?: string; value?: unknown };
}
export interface RedoclyReport {
  files?: { base?: string; revision?: string };
  changes: RedoclyChange[];
}

/** One of our rules: an override of Redocly's rating, or undefined when it does not apply. */
export type Rule = (change: RedoclyChange) => { category: Category; message?: string; dropVerdicts?: string[] } | undefined;

export declare const CATEGORIES: readonly Category[];
export declare const RULES: Record<'response-enum-value-added' | 'response-variant-added' | 'deprecated', Rule>;
export declare function classify(report: RedoclyReport, baseDocument: unknown, revisionDocument: unknown): SpecChange[];
