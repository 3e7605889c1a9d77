/**
 * The order every command and `profile show` take settings in
 * (src/cli/credentials.ts resolves them so), stated once for the help
 * texts. A module of its own: `--help` reads it without the profile code.
 */
export const SETTINGS_ORDER =
  'flags, then the profile named by --profile (else by SERVICE_SDK_PROFILE), then the environment variables, then the "default" profile';
