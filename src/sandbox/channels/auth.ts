/**
 * The channels service's authentication: `Authorization: Apikey <key>` on
 * every operation except the health check.
 *
 * - the sandbox's own key (`sandbox.credentials.channels.apiKey`) is accepted;
 * - a missing header, another scheme, or a key that is not well-formed gets
 *   `401` `VALIDATION_ERROR` with no code (the spec's answer to a bad key);
 * - a well-formed key that is not the sandbox's gets `401`
 *   `ORGANIZATION_NOT_FOUND`: the sandbox knows one organisation, so any other
 *   genuine-looking key is taken to belong to an organisation that is not
 *   onboarded here.
 *
 * "Well-formed" means the shape of the keys the sandbox issues: `sandbox_`
 * followed by 32 lowercase hex digits (`WELL_FORMED_API_KEY`). Tests that
 * want `ORGANIZATION_NOT_FOUND` send such a key; any other text is a bad key.
 * No answer repeats the key.
 */
import { apiKeyOf } from '../auth.js';
import { SandboxHttpError, type AuthInput, type SandboxAnswer } from '../types.js';
import { channelsErrorAnswer } from './error-answer.js';

export const WELL_FORMED_API_KEY = /^sandbox_[0-9a-f]{32}$/;

/** The one operation the spec marks anonymous (`security: []`). */
const ANONYMOUS = new Set(['getHealthCheck']);

export function createChannelsAuthenticator(apiKey: string): (input: AuthInput) => 'ok' | 'anonymous' | SandboxAnswer {
  return (input) => {
    const key = apiKeyOf(input.headers);
    if (key !== undefined && key === apiKey) return 'ok';
    if (ANONYMOUS.has(input.operationId)) return 'anonymous';
    if (key === undefined) {
      return refuse('VALIDATION_ERROR', 'missing or malformed Authorization header: expected "Apikey <API_KEY>"');
    }
    if (WELL_FORMED_API_KEY.test(key)) return refuse('ORGANIZATION_NOT_FOUND', 'the organization of this API key is not onboarded');
    return refuse('VALIDATION_ERROR', 'invalid API key');
  };
}

function refuse(type: 'VALIDATION_ERROR' | 'ORGANIZATION_NOT_FOUND', message: string): SandboxAnswer {
  return channelsErrorAnswer(new SandboxHttpError(401, type, message));
}
