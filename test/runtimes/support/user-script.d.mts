// Types of user-script.mjs, for the tests that import it from TypeScript.

/** Runs the user's checks against the local server at `origin`; every value is JSON. */
export declare function runChecks(origin: string): Promise<Record<string, unknown>>;
