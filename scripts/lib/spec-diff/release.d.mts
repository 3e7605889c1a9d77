export declare function releasePath(api: string): string;
export declare function releaseHeader(api: string, version: string): string;
export declare function releaseText(api: string, bundleText: string): string;
export declare function releaseBody(text: string): string;
export declare function readRelease(api: string, cwd: string): { path: string; body: string; version: string | undefined } | undefined;
export declare function releaseTagProblems(tag: string, options: { apis: string[]; cwd: string }): string[];
