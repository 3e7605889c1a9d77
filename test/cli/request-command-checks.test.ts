// `<api> request <METHOD> <path>` checks what it sends as the operation
// commands do, with the same generated request checks (the sandbox's): the
// path's parameters, the query string and the JSON body. A request that
// breaks the spec exits 2 in the operation command's words and reaches
// nothing (counted by the sandbox's own answers); `--no-check` sends it as
// given, and the service's answer (a 400, a 404) is what the user sees.
import { describe, expect, it } from 'vitest';
import { useListeningSandbox } from '../support/listening-sandbox.js';
import { answerLog } from './support/answer-log.js';
import { cli, sandboxEnv } from './support/run-cli.js';

const WALLET = { name: 'w', wallet_owner_address: '0xAb8483F64d9C6d1EcF9b849Ae677dD3315835cb2', chain_selector: '16015286601757825753', wallet_type: 'ecdsa' };

describe('request <METHOD> <path>, checked before sending', () => {
  const answers = answerLog();
  const live = useListeningSandbox(answers.options);
  const env = () => sandboxEnv(live.sandbox, live.listener);

  it.each([
    ['a missing required field', 'POST', '/channels', { nam: 'x' }, 'create-channel', 'createChannel'],
    ['an enum', 'POST', '/wallets', { ...WALLET, wallet_type: 'dsa' }, 'create-wallet', 'createWallet'],
    ['a pattern', 'POST', '/wallets', { ...WALLET, wallet_owner_address: '0x12' }, 'create-wallet', 'createWallet'],
    ['a field the spec does not allow', 'POST', '/wallets', { ...WALLET, colour: 'red' }, 'create-wallet', 'createWallet'],
  ])('a body with %s is refused (exit 2) in the operation command\'s words, and nothing reaches the sandbox', async (_kind, method, path, body, operation, operationId) => {
    const data = JSON.stringify(body);
    const before = answers.count(operationId);
    const raw = await cli(['channels', 'request', method, path, '--data', data], { env: env() });
    const typed = await cli(['channels', operation, '--data', data], { env: env() });
    expect(typed.stderr).toMatch(/^service-sdk: --data: body\./);
    expect([raw.code, raw.stdout, raw.stderr]).toEqual([2, '', typed.stderr]);
    expect(answers.count(operationId)).toBe(before);
  });

  it('a missing required body or a body where none is taken is refused, naming --data and the operation', async () => {
    const before = [answers.count('createChannel'), answers.count('listNetworks')];
    const missing = await cli(['channels', 'request', 'POST', '/channels'], { env: env() });
    expect([missing.code, missing.stdout, missing.stderr]).toEqual([2, '', 'service-sdk: missing --data: POST /channels (create-channel) needs a JSON request body\n']);
    const unwanted = await cli(['channels', 'request', 'GET', '/networks', '--data', '{}'], { env: env() });
    expect([unwanted.code, unwanted.stdout, unwanted.stderr]).toEqual([2, '', 'service-sdk: --data: GET /networks (list-networks) takes no request body\n']);
    expect([answers.count('createChannel'), answers.count('listNetworks')]).toEqual(before);
  });

  it.each([
    ['a query parameter out of bounds', '/channels?limit=0', ['list-channels', '--limit', '0'], '--limit', 'query parameter limit', 'listChannels'],
    ['a query parameter not in its enum', '/channels?status=gone', ['list-channels', '--status', 'gone'], '--status', 'query parameter status', 'listChannels'],
    ['a path parameter of the wrong format', '/channels/not-a-uuid', ['get-channel', '--channel-id', 'not-a-uuid'], '--channel-id', 'path parameter channel_id', 'getChannel'],
  ])('%s is refused (exit 2) in the operation command\'s words, named as it sits in the path, and nothing is sent', async (_kind, path, typedArgs, flag, named, operationId) => {
    const before = answers.count(operationId);
    const raw = await cli(['channels', 'request', 'GET', path], { env: env() });
    const typed = await cli(['channels', ...typedArgs], { env: env() });
    expect(typed.stderr).toMatch(new RegExp(`^service-sdk: ${flag}: expected `));
    expect([raw.code, raw.stdout, raw.stderr]).toEqual([2, '', typed.stderr.replace(flag, named)]);
    expect(answers.count(operationId)).toBe(before);
  });

  it('a valid body and valid parameters are sent', async () => {
    const before = answers.count('createChannel');
    const created = await cli(['channels', 'request', 'POST', '/channels', '--data', '{"name":"checked"}'], { env: env() });
    expect([created.code, created.stderr, created.json?.name]).toEqual([0, '', 'checked']);
    expect(answers.count('createChannel')).toBe(before + 1);
    const listed = await cli(['channels', 'request', 'GET', '/channels?limit=1&status=active'], { env: env() });
    expect([listed.code, listed.json?.data?.map((channel: { name: string }) => channel.name)]).toEqual([0, ['checked']]);
    const byId = await cli(['channels', 'request', 'GET', `/channels/${created.json.channel_id}`], { env: env() });
    expect([byId.code, byId.json?.name]).toEqual([0, 'checked']);
  });

  it('--no-check sends the request as given and shows the service\'s answer: its 400 for a bad body, its 404 for an undocumented path', async () => {
    const before = answers.count('createChannel');
    const run = await cli(['channels', 'request', 'POST', '/channels', '--data', '{"nam":"x"}', '--no-check', '-i'], { env: env() });
    expect([run.code, run.stderr]).toEqual([1, expect.stringMatching(/^service-sdk: 400 /)]);
    expect(run.stdout).toMatch(/^HTTP\/1\.1 400 Bad Request\n/);
    expect(JSON.parse(run.stdout.slice(run.stdout.indexOf('\n\n') + 2))).toMatchObject({ message: expect.stringContaining('name') });
    expect(answers.count('createChannel')).toBe(before + 1);
    const undocumented = await cli(['channels', 'request', 'GET', '/network', '--no-check'], { env: env() });
    expect([undocumented.code, undocumented.stderr]).toEqual([1, expect.stringMatching(/^service-sdk: 404 /)]);
  });

  it('--no-check still refuses what HTTP cannot send: a body on GET or HEAD (exit 2, naming --data)', async () => {
    const before = answers.count('listNetworks');
    const run = await cli(['channels', 'request', 'GET', '/networks', '--data', '{}', '--no-check'], { env: env() });
    expect([run.code, run.stdout, run.stderr]).toEqual([2, '', 'service-sdk: --data: a GET request carries no body\n']);
    expect(answers.count('listNetworks')).toBe(before);
  });

  it('the help says what is checked and how to send a request as given', async () => {
    const help = await cli(['channels', 'request', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^ {2}--no-check\s+send the request as given: no check of its path, parameters or body against the spec$/m);
    expect(help.stdout).toContain('checked against the spec before sending');
  });
});
