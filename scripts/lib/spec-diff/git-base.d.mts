export declare function git(args: string[], cwd: string): string | undefined;
export declare function isCommit(ref: string, cwd: string): boolean;
export declare function fileAt(ref: string, path: string, cwd: string): string | undefined;
