// Secrets (issue #14 item 6) against the real gateway over HTTP on 127.0.0.1: a secret in a
// server's env, a header, a URL query or userinfo, and in call arguments never appears in the logs
// or /api/servers; children get only their configured env plus a safe base unless inheritEnv; a
// config file others can read is warned about. Also the redaction functions on their own.
import { chmod } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { connectHttp, freePort, newClient, npmServer, startHttpGateway, waitFor, writeConfig } from '../helpers/gateway.js';
import { redactUrls, redactorFor } from '../../src/logging/redact.js';

describe('redaction', () => {
  it('takes URL credentials, secret-looking query values and known values out of text', () => {
    expect(redactUrls('cannot reach https://u:p4ss@h.example/mcp?api_key=abc123&page=2&Token=zz: fetch failed')).toBe('cannot reach https://***@h.example/mcp?api_key=***&page=2&Token=***: fetch failed');
    expect(redactUrls('see http://h/x?access-token=1&sig=2')).toBe('see http://h/x?access-token=***&sig=***');
    const redact = redactorFor(['s3cr3t-value', 'abc']);
    expect(redact('token s3cr3t-value and abc stay? s3cr3t-value')).toBe('token *** and abc stay? ***');
  });
});

describe('secrets through the gateway', () => {
  it('never shows env, header, URL or argument secrets in logs or /api/servers; children get a safe env', async () => {
    const deadPort = await freePort();
    const failing = { command: process.execPath, args: ['-e', "console.error('starting with token ' + process.env.API_TOKEN); process.exit(1)"], env: { API_TOKEN: 'ENV-SECRET-0001' }, lazy: false };
    const config = await writeConfig(
      {
        remote: { type: 'http', url: `http://127.0.0.1:${deadPort}/mcp?api_key=QUERY-SECRET-0002&page=1`, headers: { Authorization: 'Bearer HEADER-SECRET-0003' }, lazy: false },
        userinfo: { type: 'http', url: `http://admin:USERINFO-SECRET-0004@127.0.0.1:${deadPort}/mcp`, lazy: false },
        failing,
        everything: npmServer('everything'),
        inherits: { ...npmServer('everything'), inheritEnv: true },
      },
      { resilience: { retry: { maxAttempts: 1 } } },
    );
    await chmod(config, 0o644);
    const gateway = await startHttpGateway(config, [], { GATEWAY_OWN_SECRET: 'GATEWAY-SECRET-0005' });
    try {
      const user = await connectHttp(gateway.url, newClient());
      await waitFor(async () => {
        const body = (await (await fetch(`${gateway.url}/api/servers`)).json()) as { servers: Array<{ key: string; connections: Array<{ lastError: string | null }> }> };
        return ['remote', 'userinfo', 'failing'].every((key) => body.servers.find((s) => s.key === key)?.connections.some((c) => c.lastError));
      }, 'the three failing servers to report an error');
      const api = await (await fetch(`${gateway.url}/api/servers`)).text();
      expect(api).toContain('api_key=***');

      const echoed = await user.client.callTool({ name: 'everything_echo', arguments: { message: 'ARG-SECRET-0006' } });
      expect(JSON.stringify(echoed.content)).toContain('ARG-SECRET-0006');
      const env = JSON.stringify((await user.client.callTool({ name: 'everything_get-env', arguments: {} })).content);
      expect(env).not.toContain('GATEWAY-SECRET-0005');
      expect(env).toContain('PATH');
      const inherited = JSON.stringify((await user.client.callTool({ name: 'inherits_get-env', arguments: {} })).content);
      expect(inherited).toContain('GATEWAY-SECRET-0005');
      await user.close();

      const logs = gateway.log.text();
      expect(logs).toContain('server unavailable');
      for (const secret of ['ENV-SECRET-0001', 'QUERY-SECRET-0002', 'HEADER-SECRET-0003', 'USERINFO-SECRET-0004', 'ARG-SECRET-0006']) {
        expect(logs).not.toContain(secret);
        expect(api).not.toContain(secret);
      }
      expect(gateway.log.records().some((r) => String(r.msg).includes('other users can read it') && String(r.msg).includes('chmod 600'))).toBe(true);
    } finally {
      await gateway.close();
    }
  }, 90_000);
});
