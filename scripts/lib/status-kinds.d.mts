export declare const STATUS_KINDS_KEY: 'x-status-kinds';
export declare const STATUS_KINDS: readonly ['in_progress', 'succeeded', 'failed'];
export interface StatusEnum {
  name: string;
  values: string[];
  kinds: Record<string, 'in_progress' | 'succeeded' | 'failed'>;
  /** The values with no kind yet. */
  unclassified: string[];
}
export declare function statusEnums(document: unknown): StatusEnum[];
export declare function openEnumsInterface(document: unknown): string;
export declare function statusKindsTable(document: unknown): string;
export declare function newStatusNote(document: unknown, change: { field?: string; message?: string }): string | undefined;
