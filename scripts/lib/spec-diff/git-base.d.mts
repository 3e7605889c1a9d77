export declare function git(args: string[], cwd: string): string | undefined;
export declare function isCommit(ref: string, cwd: string): boolean;
export declare function latestReleaseTag(api: string, cwd: string): string | undefined;
export declare function defaultBase(api: string, cwd: string): { ref: string | undefined; why: string };
export declare function fileAt(ref: string, path: string, cwd: string): string | undefined;
