/**
 * The lines both sandbox commands print about a listening sandbox (the
 * standalone `service-sdk-sandbox` and `service-sdk sandbox`): each API's
 * base URL and the credentials it accepts. Printing the credentials is the
 * point: they are made up for the run and open nothing but that sandbox.
 */
import type { SandboxCredentials } from './context.js';
import type { SandboxBaseUrls } from './listen.js';

/** Each API's base URL, indented under a heading; `streamsNote` follows the streams URL (the live stream's URL). */
export function baseUrlLines(baseUrls: SandboxBaseUrls, streamsNote = ''): string[] {
  return [`  channels  ${baseUrls.channels}`, `  streams   ${baseUrls.streams}${streamsNote}`, `  policy    ${baseUrls.policy}`];
}

/** The sandbox's API keys and the streams HMAC secret, indented under a heading. */
export function credentialLines({ channels, streams, policy }: SandboxCredentials): string[] {
  return [
    `  channels apiKey   ${channels.apiKey}`,
    `  streams apiKey    ${streams.apiKey}`,
    `  streams apiSecret ${streams.apiSecret}`,
    `  policy apiKey     ${policy.apiKey}`,
  ];
}
