// The generated types the user code below is compiled against: here the
// channels 0.8.0 fixture. `npm run typecheck` compiles user-code.ts with this
// file; test/unit/spec-diff.test.ts compiles the very same user-code.ts again
// with this file pointing at the 0.9.0 fixture's types (and at breaking ones),
// as a user's regeneration would.
export type { components, paths } from '../../fixtures/spec-bumps/types/channels-0.8.0.js';
