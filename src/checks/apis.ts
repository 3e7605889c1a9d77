// The names of the five APIs, apart from the sandbox's types so that the request checks
// (which the command line uses too) can name an API without importing the sandbox's contract.

/** The five APIs a sandbox serves. */
export type SandboxApi = 'channels' | 'streams' | 'policy-coordinator' | 'policy-evaluation' | 'policy-reporting';

export const SANDBOX_APIS: readonly SandboxApi[] = [
  'channels',
  'streams',
  'policy-coordinator',
  'policy-evaluation',
  'policy-reporting',
];
