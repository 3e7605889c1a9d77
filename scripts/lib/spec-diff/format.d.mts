import type { ApiComparison } from './compare.mjs';

export declare function formatText(results: ApiComparison[]): string;
export declare function formatMarkdown(results: ApiComparison[]): string;
export declare function changelogSection(result: ApiComparison, date: string): string;
export declare function changelogVerdict(result: ApiComparison): { write: boolean; error?: string };
export declare function updateChangelog(existing: string, sections: string[]): string;
