// A spec bump reaches the sandbox with no hand edit: the channels bundle is
// copied, one constraint tightened, the request checks regenerated from the
// copy into a temporary folder (the same code `npm run generate` runs), and a
// sandbox built with them refuses what the committed checks accept.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { requestChecksModules, requestChecksRuntime } from '../../scripts/lib/request-checks.mjs';
import { GENERATED_REQUEST_CHECKS, type RequestChecks } from '../../src/sandbox/request-check.js';
import { createSandboxWith, type Sandbox } from '../../src/sandbox/sandbox.js';

const root = join(import.meta.dirname, '..', '..');
const CHANNELS = 'https://cre-connect.api.chain.link/v1';
const OWNER = `0x${'11'.repeat(20)}`;
const SEPOLIA = '16015286601757825753';
// Inside the repository (ignored by git), so the generated module resolves ajv's helpers from node_modules.
mkdirSync(join(root, '.tmp'), { recursive: true });
const out = mkdtempSync(join(root, '.tmp', 'spec-bump-'));
writeFileSync(join(out, 'runtime.ts'), requestChecksRuntime(root));
afterAll(() => rmSync(out, { recursive: true, force: true }));

/** The committed checks, with the channels ones regenerated from `bundle`. */
async function checksFrom(bundle: Record<string, any>, name: string): Promise<RequestChecks> {
  for (const [file, text] of Object.entries(requestChecksModules('channels', bundle, name))) writeFileSync(join(out, file), text);
  const { requestChecks } = (await import(pathToFileURL(join(out, `${name}.ts`)).href)) as { requestChecks: RequestChecks['channels'] };
  return { ...GENERATED_REQUEST_CHECKS, channels: requestChecks };
}

function committedBundle(): Record<string, any> {
  return parse(readFileSync(join(root, 'generated', 'openapi', 'channels.yaml'), 'utf8'));
}

async function status(sandbox: Sandbox, method: string, path: string, body: unknown): Promise<{ status: number; message: string }> {
  const response = await sandbox.fetch(`${CHANNELS}${path}`, {
    method,
    headers: { Authorization: `Apikey ${sandbox.credentials.channels.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, message: ((await response.json()) as { message: string }).message };
}

/** The same request to a sandbox with the committed checks and to one with checks made from the tightened copy. */
async function before_after(tighten: (bundle: Record<string, any>) => void, name: string, method: string, path: string, body: unknown) {
  const bundle = committedBundle();
  tighten(bundle);
  const committed = createSandboxWith(GENERATED_REQUEST_CHECKS, { pace: 0 });
  const bumped = createSandboxWith(await checksFrom(bundle, name), { pace: 0 });
  try {
    return { before: await status(committed, method, path, body), after: await status(bumped, method, path, body) };
  } finally {
    committed.close();
    bumped.close();
  }
}

describe('a tightened channels spec, regenerated, reaches the sandbox', () => {
  it('a shorter maxLength for a channel name', async () => {
    const { before, after } = await before_after(
      (bundle) => {
        bundle.components.schemas.CreateChannel.properties.name.maxLength = 8;
      },
      'max-length',
      'POST',
      '/channels',
      { name: 'a-long-channel-name' },
    );
    expect(before.status).toBe(201);
    expect(after).toEqual({ status: 400, message: 'body.name: expected a string of at most 8 characters' });
  });

  it('an enum value removed from the wallet types', async () => {
    const body = { name: 'w', wallet_owner_address: OWNER, chain_selector: SEPOLIA, wallet_type: 'ecdsa' };
    const { before, after } = await before_after(
      (bundle) => {
        const types = bundle.components.schemas.WalletType;
        types.enum = types.enum.filter((value: string) => value !== 'ecdsa');
      },
      'enum',
      'POST',
      '/wallets',
      body,
    );
    expect(before.status).toBe(201);
    expect(after).toEqual({ status: 400, message: 'body.wallet_type: expected one of rsa, protected_ecdsa, protected_rsa' });
  });

  it('a new required field', async () => {
    const { before, after } = await before_after(
      (bundle) => {
        const create = bundle.components.schemas.CreateChannel;
        create.properties.labels = { type: 'object', additionalProperties: { type: 'string' } };
        create.required = [...create.required, 'labels'];
      },
      'required',
      'POST',
      '/channels',
      { name: 'payouts' },
    );
    expect(before.status).toBe(201);
    expect(after).toEqual({ status: 400, message: 'body.labels: required' });
  });

  it('a new optional field is accepted once the spec has it (the rehearsal of issue 27)', async () => {
    const { before, after } = await before_after(
      (bundle) => {
        bundle.components.schemas.CreateChannel.properties.labels = { type: 'object', additionalProperties: { type: 'string' } };
      },
      'optional',
      'POST',
      '/channels',
      { name: 'payouts', labels: { team: 'treasury' } },
    );
    expect(before).toEqual({ status: 400, message: 'body.labels: unknown field' });
    expect(after.status).toBe(201);
  });
});
