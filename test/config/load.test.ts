import { execFile } from 'node:child_process';
import { chmod, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { ConfigError, DEFAULT_SETTINGS, loadConfig, parseConfig, type LoadedConfig } from '../../src/config/index.js';
import { errorOf, tempDir, type TempDir } from './helpers.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.remove();
});

const env = { HOME: '/home/u', GITHUB_TOKEN: 'ghp_x', PORT: '8080' };

async function load(content: unknown, name = '.mcp.json'): Promise<LoadedConfig> {
  return loadConfig(await tmp.write(name, content), env);
}

const NOBODY = 65534;
const LOADER = path.resolve(import.meta.dirname, '../../src/config/index.ts');

/**
 * The message of loading `file` in a child process running as "nobody" (uid and gid 65534): root
 * reads any file, so a test of an unreadable config run as root drops to a user who cannot.
 */
async function loadAsNobody(file: string): Promise<string> {
  const script = `const { loadConfig } = await import(process.argv[1]);
    try { await loadConfig(process.argv[2], {}); console.log('loaded'); } catch (error) { console.log(error.message); }`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, LOADER, file], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: path.dirname(LOADER),
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
  });
  return stdout.trim();
}

/** Loads `content`, expects a ConfigError and returns it. */
async function loadError(content: unknown, name = '.mcp.json'): Promise<ConfigError> {
  const file = await tmp.write(name, content);
  const err = await errorOf(() => loadConfig(file, env));
  expect(err).toBeInstanceOf(ConfigError);
  return err as ConfigError;
}

describe('config shapes', () => {
  it('reads the Claude Code shape: stdio, http and sse servers in file order', async () => {
    const config = await load({
      mcpServers: {
        fs: { command: 'npx', args: ['-y', 'server-filesystem', '${HOME}'], env: { TOKEN: '${GITHUB_TOKEN}' }, cwd: '/srv' },
        github: { type: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ${GITHUB_TOKEN}' } },
        old: { type: 'sse', url: 'http://localhost:${PORT}/sse' },
        plain: { type: 'stdio', command: 'node' },
      },
    });
    expect(config.file).toBe(path.join(tmp.dir, '.mcp.json'));
    expect(config.servers).toEqual([
      { key: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'server-filesystem', '/home/u'], env: { TOKEN: 'ghp_x' }, cwd: '/srv', disabled: false },
      { key: 'github', transport: 'http', url: 'https://api.example.com/mcp', headers: { Authorization: 'Bearer ghp_x' }, disabled: false },
      { key: 'old', transport: 'sse', url: 'http://localhost:8080/sse', headers: {}, disabled: false },
      { key: 'plain', transport: 'stdio', command: 'node', args: [], env: {}, disabled: false },
    ]);
    expect(config.settings).toEqual(DEFAULT_SETTINGS);
  });

  it('reads the Cursor shape: a url without type is http', async () => {
    const config = await load({ mcpServers: { remote: { url: 'https://x.example/mcp', headers: { 'X-Key': 'k' } } } });
    expect(config.servers).toEqual([{ key: 'remote', transport: 'http', url: 'https://x.example/mcp', headers: { 'X-Key': 'k' }, disabled: false }]);
  });

  it('reads a remote entry\'s oauth field, with ${VAR} expanded in it, and refuses an unknown key there', async () => {
    const oauth = { clientId: 'preset', clientSecret: '${GITHUB_TOKEN}', scopes: ['mcp:read'], sendResource: false, redirectPort: 8765 };
    const config = await load({ mcpServers: { remote: { url: 'https://x.example/mcp', oauth } } });
    expect(config.servers).toEqual([{ key: 'remote', transport: 'http', url: 'https://x.example/mcp', headers: {}, oauth: { ...oauth, clientSecret: 'ghp_x' }, disabled: false }]);
    const error = await errorOf(() => load({ mcpServers: { remote: { url: 'https://x.example/mcp', oauth: { clientID: 'typo' } } } }));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toMatch(/server "remote": field "oauth/);
  });

  it('reads the Claude Desktop shape', async () => {
    const config = await load({ mcpServers: { memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } } });
    expect(config.servers.map((s) => s.key)).toEqual(['memory']);
  });

  it('reads the VS Code shape with inputs, comments and trailing commas, and ignores unknown entry fields', async () => {
    const text = `{
      // VS Code allows comments in mcp.json
      "inputs": [{ "type": "promptString", "id": "token", "password": true }],
      "servers": {
        "a": { "type": "stdio", "command": "node", "args": ["a.js"], "envFile": "\${workspaceFolder}/.env", "dev": {} },
        "b": { "type": "streamable-http", "url": "https://b.example/mcp" },
        "c": { "type": "streamableHttp", "url": "https://c.example/mcp", "alwaysAllow": ["x"], },
      },
    }`;
    const config = await load(text, 'mcp.json');
    expect(config.servers.map((s) => [s.key, s.transport])).toEqual([
      ['a', 'stdio'],
      ['b', 'http'],
      ['c', 'http'],
    ]);
    expect(config.servers[0]).not.toHaveProperty('envFile');
  });

  it('accepts an empty servers object', async () => {
    expect((await load({ mcpServers: {} })).servers).toEqual([]);
    expect((await load({ servers: {} })).servers).toEqual([]);
  });

  it('reads disabled, enabled: false and description', async () => {
    const config = await load({
      mcpServers: {
        a: { command: 'a', disabled: true, description: 'the a server' },
        b: { url: 'https://b.example', enabled: false },
        c: { command: 'c', enabled: true },
      },
    });
    expect(config.servers.map((s) => [s.key, s.disabled, s.description])).toEqual([
      ['a', true, 'the a server'],
      ['b', true, undefined],
      ['c', false, undefined],
    ]);
  });

  it('resolves a relative cwd against the config file folder, after expansion', async () => {
    await mkdir(path.join(tmp.dir, 'conf'));
    const file = await tmp.write('conf/.mcp.json', { mcpServers: { a: { command: 'x', cwd: '../${SUB:-work}' } } });
    const config = await loadConfig(file, {});
    expect(config.servers[0]).toMatchObject({ cwd: path.join(tmp.dir, 'work') });
  });

  it('does not expand keys, descriptions or other fields', async () => {
    const config = await load({ mcpServers: { '${HOME}': { command: 'x', description: '${HOME}', env: { '${HOME}': 'v' } } } });
    expect(config.servers[0]).toMatchObject({ key: '${HOME}', description: '${HOME}', env: { '${HOME}': 'v' } });
  });

  it('parseConfig works on text and resolves the file path', () => {
    const config = parseConfig('{"mcpServers": {"a": {"command": "${CMD:-node}"}}}', 'rel/x.json', {});
    expect(config.file).toBe(path.resolve('rel/x.json'));
    expect(config.servers[0]).toMatchObject({ command: 'node' });
  });

  it('defaults env to process.env', () => {
    process.env.SWITCHBOARD_TEST_CMD = 'from-process-env';
    try {
      const config = parseConfig('{"mcpServers": {"a": {"command": "${SWITCHBOARD_TEST_CMD}"}}}', 'x.json');
      expect(config.servers[0]).toMatchObject({ command: 'from-process-env' });
    } finally {
      delete process.env.SWITCHBOARD_TEST_CMD;
    }
  });
});

describe('config errors name file, server and field', () => {
  it('missing file', async () => {
    const file = path.join(tmp.dir, 'nope.json');
    const err = await errorOf(() => loadConfig(file, env));
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.message).toBe(`${file}: file not found`); // the path once (issue 19 item 12)
    expect((err as ConfigError).file).toBe(file);
  });

  it('a directory instead of a file', async () => {
    const err = await errorOf(() => loadConfig(tmp.dir, env));
    expect(err.message).toBe(`${tmp.dir}: is a directory, not a file`);
  });

  it('unreadable file (as root too: then the loader runs as "nobody")', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    await chmod(file, 0o000);
    const message = process.getuid?.() === 0 ? await loadAsNobody(file) : (await errorOf(() => loadConfig(file, env))).message;
    expect(message).toBe(`${file}: cannot read the file: permission denied`);
  });

  it('any other read failure', async () => {
    const notADir = await tmp.write('plain.txt', 'x');
    const file = path.join(notADir, '.mcp.json');
    const err = await errorOf(() => loadConfig(file, env));
    expect(err.message).toMatch(new RegExp(`^${file.replace(/[.]/g, '\\.')}: cannot read the file: ENOTDIR`));
  });

  it('invalid JSON, with line and column', async () => {
    const err = await loadError('{\n  "mcpServers": {\n    "a": { "command": "x" }\n    "b": {}\n  }\n}');
    expect(err.message).toBe(`${path.join(tmp.dir, '.mcp.json')}: invalid JSON: unexpected "\\"", expected ',' or '}' at line 4, column 5`);
    expect(err.serverKey).toBeUndefined();
  });

  it('a non-object root', async () => {
    expect((await loadError('[]')).reason).toBe('the top level must be a JSON object (found an array)');
    expect((await loadError('null')).reason).toBe('the top level must be a JSON object (found null)');
    expect((await loadError('"x"')).reason).toBe('the top level must be a JSON object (found a string)');
  });

  it('neither mcpServers nor servers', async () => {
    const err = await loadError({ other: {} });
    expect(err.reason).toMatch(/^no servers: expected a "mcpServers" object .* or a "servers" object \(VS Code\)$/);
  });

  it('both mcpServers and servers', async () => {
    expect((await loadError({ mcpServers: {}, servers: {} })).reason).toBe('has both "mcpServers" and "servers"; keep one of them');
  });

  it('servers that is not an object', async () => {
    const err = await loadError({ servers: ['a'] });
    expect(err.message).toBe(`${path.join(tmp.dir, '.mcp.json')}: field "servers": must be an object (got an array)`);
  });

  it('an empty server key', async () => {
    const err = await loadError({ mcpServers: { ok: { command: 'x' }, ' ': { command: 'y' } } });
    expect(err.serverKey).toBe(' ');
    expect(err.reason).toBe('server keys must not be empty');
  });

  const file = () => path.join(tmp.dir, '.mcp.json');
  const cases: Array<[string, unknown, string, string | undefined, string]> = [
    ['a non-object entry', { mcpServers: { a: 'npx x' } }, 'a', undefined, 'entry must be an object (got string "npx x")'],
    ['a missing command', { mcpServers: { a: { args: [] } } }, 'a', 'command', 'is required'],
    ['an empty command', { mcpServers: { a: { command: '' } } }, 'a', 'command', 'must not be empty'],
    ['a wrong arg type', { mcpServers: { a: { command: 'x', args: ['a', 'b', 3] } } }, 'a', 'args[2]', 'must be a string (got number 3)'],
    ['args not an array', { mcpServers: { a: { command: 'x', args: '-y' } } }, 'a', 'args', 'must be an array (got string "-y")'],
    ['a non-string env value', { mcpServers: { a: { command: 'x', env: { PORT: 80 } } } }, 'a', 'env.PORT', 'must be a string (got number 80)'],
    ['a non-boolean disabled', { mcpServers: { a: { command: 'x', disabled: 'yes' } } }, 'a', 'disabled', 'must be a boolean (got string "yes")'],
    ['an invalid URL', { mcpServers: { github: { type: 'http', url: 'not a url' } } }, 'github', 'url', 'must be a valid URL'],
    ['a non-http URL', { mcpServers: { github: { url: 'ws://x.example' } } }, 'github', 'url', 'must be an http:// or https:// URL (got ws://)'],
    ['a missing url', { mcpServers: { r: { type: 'sse' } } }, 'r', 'url', 'is required'],
    ['a non-string header', { mcpServers: { r: { url: 'https://x', headers: { 'X-N': 1 } } } }, 'r', 'headers.X-N', 'must be a string (got number 1)'],
    [
      'an unknown type',
      { mcpServers: { ws: { type: 'websocket', url: 'wss://x' } } },
      'ws',
      'type',
      'must be one of "stdio", "http", "streamable-http", "streamableHttp", "sse" (got "websocket")',
    ],
    [
      'both command and url without type',
      { mcpServers: { both: { command: 'x', url: 'https://x' } } },
      'both',
      undefined,
      'has both "command" and "url"; add "type": "stdio" or "type": "http" to say which',
    ],
    ['a url that expands to nothing valid', { mcpServers: { r: { url: '${NO_URL:-}' } } }, 'r', 'url', 'must be a valid URL'],
  ];
  it.each(cases)('%s', async (_name, content, serverKey, field, reason) => {
    const err = await loadError(content);
    expect(err.file).toBe(file());
    expect(err.serverKey).toBe(serverKey);
    expect(err.field).toBe(field);
    expect(err.reason).toBe(reason);
    const where = field === undefined ? '' : `field "${field}": `;
    expect(err.message).toBe(`${file()}: server "${serverKey}": ${where}${reason}`);
  });

  it('uses the path as given in messages', () => {
    expect(() => parseConfig('{"mcpServers": {"github": {"url": "nope"}}}', 'examples/x.json', {})).toThrow(
      new ConfigError('must be a valid URL', { file: 'examples/x.json', serverKey: 'github', field: 'url' }),
    );
    expect(() => parseConfig('{"mcpServers": {"github": {"url": "nope"}}}', 'examples/x.json', {})).toThrow(
      'examples/x.json: server "github": field "url": must be a valid URL',
    );
  });
});

describe('an entry that cannot be served is skipped, the rest are served (issue 19 items 11 and 2)', () => {
  const file = () => path.join(tmp.dir, '.mcp.json');
  const unset = (name: string) => `environment variable "${name}" is not set (set it, or give a default: \${${name}:-value}); the other servers are served`;

  it.each([
    ['in args', { command: 'x', args: ['--token', '${NOT_SET}'] }, 'args[1]', 'NOT_SET'],
    ['in a header', { url: 'https://x', headers: { Authorization: 'Bearer ${NOT_SET}' } }, 'headers.Authorization', 'NOT_SET'],
    ['in a url', { url: '${NO_URL}' }, 'url', 'NO_URL'],
    ['in a disabled entry', { command: 'x', env: { T: '${NOT_SET}' }, disabled: true }, 'env.T', 'NOT_SET'],
  ])('an unset variable %s', async (_name, entry, field, variable) => {
    const config = await load({ mcpServers: { a: { command: 'x' }, b: entry, c: { url: 'https://c.example' } } });
    expect(config.servers.map((s) => s.key)).toEqual(['a', 'c']);
    expect(config.warnings.map((w) => w.message)).toEqual([`${file()}: server "b": field "${field}": skipped: ${unset(variable)}`]);
  });

  it('an entry that runs this gateway (its bin, built or bundled CLI, or the switchboard command) is skipped', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const config = await load({
      mcpServers: {
        sb: { command: 'node', args: [path.join(root, 'bin/switchboard.js'), 'serve', '--config', '.mcp.json'] },
        built: { command: process.execPath, args: [path.relative(tmp.dir, path.join(root, 'dist/cli/main.js')), 'serve'] },
        bundled: { command: process.execPath, args: [path.join(root, 'dist/bundle/main.js'), 'serve', '--stdio'] },
        linked: { command: '/usr/local/bin/switchboard', args: ['serve'] },
        other: { command: 'node', args: ['/srv/other/main.js'] },
      },
    });
    expect(config.servers.map((s) => s.key)).toEqual(['other']);
    expect(config.warnings).toHaveLength(4);
    expect(config.warnings.map((w) => w.serverKey)).toEqual(['sb', 'built', 'bundled', 'linked']);
    expect(config.warnings[0]!.message).toMatch(/server "sb": skipped: it runs this gateway .* without end/);
  });

  it('refuses to load a file an ancestor gateway serves (the inherited marker)', () => {
    const file = path.join(tmp.dir, '.mcp.json');
    expect(() => parseConfig('{"mcpServers": {}}', file, { SWITCHBOARD_GATEWAY_CONFIGS: `/elsewhere.json${path.delimiter}${file}` })).toThrow(/started by a Switchboard gateway serving the same file/);
    expect(parseConfig('{"mcpServers": {}}', file, { SWITCHBOARD_GATEWAY_CONFIGS: '/elsewhere.json' }).servers).toEqual([]);
  });
});

describe('settings', () => {
  it('fills defaults for a partial block', async () => {
    const config = await load({ mcpServers: {}, switchboard: { separator: '__', http: { port: 0 } } });
    expect(config.settings).toEqual({
      ...DEFAULT_SETTINGS,
      separator: '__',
      http: { ...DEFAULT_SETTINGS.http, port: 0 },
    });
  });

  it('has the documented defaults', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      separator: '_',
      nameBudget: 48,
      http: { host: '127.0.0.1', port: 3333, allowedOrigins: [], allowedHosts: [], unauthenticatedAdmin: false },
      sessionIdleMs: 30 * 60 * 1000,
      isolatedIdleMs: 5 * 60 * 1000,
      requestTimeoutMs: 60_000,
      listChangedDebounceMs: 100,
      listTimeoutMs: 3000,
      resilience: {
        lazy: true,
        connectTimeoutMs: 30_000,
        maxRequestMs: 3_600_000,
        retry: { maxAttempts: 5, initialDelayMs: 1000, maxDelayMs: 16_000 },
        breaker: { failureThreshold: 5, halfOpenAfterMs: 30_000 },
        healthCheck: { intervalMs: 30_000, timeoutMs: 5000, failuresBeforeRestart: 2 },
        shutdownGraceMs: 1000,
      },
      preconnect: [],
      mode: 'passthrough',
      metricsRetentionDays: 7,
      recordCalls: true,
      includeMetrics: false,
      autoRetryFallback: false,
      keepTools: [],
      maxTools: 40,
      tokenBudget: 20_000,
      maxFallbacks: 3,
      logFile: true,
      logRetention: { files: 20, days: 14 },
      logRequests: false,
      logArguments: false,
      search: { learning: true, learningHalfLifeDays: 30, priors: true },
      descriptions: {},
      optimization: { enabled: false, backends: [], candidates: 4, repeats: 3, rule: {} },
      pinning: 'warn',
      inboundEra: 'auto',
      inputRequiredTtlMs: 600_000,
      clients: [],
      limits: {
        maxInitializeBodyBytes: 1024 * 1024,
        maxBodyBytes: 4 * 1024 * 1024,
        maxJsonDepth: 64,
        sessionsPerClient: 64,
        concurrentCallsPerSession: 32,
        maxResultChars: 32 * 1024 * 1024,
        maxToolNameLength: 256,
        maxQueryLength: 500,
        learnedQueriesPerSession: 20,
        learningQuorum: 2,
        requestsPerMinute: 1200,
      },
    });
    expect(Object.isFrozen(DEFAULT_SETTINGS)).toBe(true);
  });

  it('reads every setting', async () => {
    const all = {
      separator: '-',
      nameBudget: 64,
      http: { host: '0.0.0.0', port: 9000, allowedOrigins: ['http://localhost:5173'], allowedHosts: ['gw.local'], unauthenticatedAdmin: true },
      sessionIdleMs: 1000,
      isolatedIdleMs: 2000,
      requestTimeoutMs: 5000,
      listChangedDebounceMs: 0,
      listTimeoutMs: 500,
      resilience: {
        lazy: false,
        connectTimeoutMs: 1000,
        maxRequestMs: 10_000,
        retry: { maxAttempts: 2, initialDelayMs: 10, maxDelayMs: 20 },
        breaker: { failureThreshold: 3, halfOpenAfterMs: 500 },
        healthCheck: { intervalMs: 0, timeoutMs: 100, failuresBeforeRestart: 1 },
        shutdownGraceMs: 0,
      },
      preconnect: ['a'],
      mode: 'toolset',
      metricsRetentionDays: 30,
      recordCalls: false,
      includeMetrics: true,
      autoRetryFallback: true,
      keepTools: ['everything_echo'],
      maxTools: 25,
      tokenBudget: 8000,
      maxFallbacks: 5,
      logFile: '/var/log/switchboard.log',
      logRetention: { files: 5, days: 0 },
      logRequests: true,
      logArguments: true,
      search: {
        mode: 'semantic',
        embeddings: { baseUrl: 'http://127.0.0.1:11434/v1', model: 'nomic-embed-text', apiKeyEnv: 'EMBED_KEY', dimensions: 256, batchSize: 16, timeoutMs: 3000 },
        learning: false,
        learningHalfLifeDays: 7,
        priors: false,
      },
      descriptions: { everything: { echo: 'Echoes the message back.' } },
      optimization: {
        enabled: true,
        backends: [{ name: 'local', type: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen', apiKeyEnv: 'LOCAL_KEY', timeoutMs: 1000 }],
        candidates: 2,
        repeats: 5,
        rule: { minGain: 0.2, alpha: 0.01, maxCategoryDrop: 0.1, categoryBoundLevel: 0.8, minNegativeRate: 0.7, paraphraseKeep: 0.6, beatParaphraseControl: false, noStealing: false, holdoutNoCategoryDrop: false, holdoutOverallAtLeastCanonical: false },
      },
      clients: [{ name: 'ops', tokenHash: `sha256:${'a'.repeat(64)}`, servers: ['git*'], tools: ['git.status'], mode: 'meta', toolset: 'review', admin: true, requestsPerMinute: 60, maxSessions: 2 }],
      limits: {
        maxInitializeBodyBytes: 2048,
        maxBodyBytes: 4096,
        maxJsonDepth: 16,
        sessionsPerClient: 3,
        concurrentCallsPerSession: 4,
        maxResultChars: 100_000,
        maxToolNameLength: 64,
        maxQueryLength: 100,
        learnedQueriesPerSession: 5,
        learningQuorum: 3,
        requestsPerMinute: 100,
      },
      pinning: 'strict',
      inboundEra: 'legacy',
      inputRequiredTtlMs: 120_000,
    };
    expect((await load({ mcpServers: {}, switchboard: all })).settings).toEqual(all);
    const partial = await load({ mcpServers: {}, switchboard: { resilience: { retry: { maxAttempts: 9 } } } });
    expect(partial.settings.resilience.retry).toEqual({ maxAttempts: 9, initialDelayMs: 1000, maxDelayMs: 16_000 });
    expect(partial.settings.resilience.breaker).toEqual(DEFAULT_SETTINGS.resilience.breaker);
  });

  it('returns settings that do not share arrays with the defaults', async () => {
    const config = await load({ mcpServers: {} });
    config.settings.http.allowedHosts.push('x');
    expect(DEFAULT_SETTINGS.http.allowedHosts).toEqual([]);
  });

  const settingsCases: Array<[string, unknown, string, string]> = [
    ['a misspelt key', { seperator: '__' }, 'switchboard.seperator', 'unknown setting; did you mean "separator"?'],
    ['a misspelt nested key', { http: { prot: 1 } }, 'switchboard.http.prot', 'unknown setting; did you mean "port"?'],
    ['an unknown key', { colour: 'red' }, 'switchboard.colour', 'unknown setting'],
    ['a misspelt log retention key', { logRetention: { file: 3 } }, 'switchboard.logRetention.file', 'unknown setting; did you mean "files"?'],
    ['a misspelt search key', { search: { embedings: {} } }, 'switchboard.search.embedings', 'unknown setting; did you mean "embeddings"?'],
    ['an API key where its variable name belongs', { search: { embeddings: { baseUrl: 'http://x/v1', model: 'm', apiKeyEnv: 'sk-abc123' } } }, 'switchboard.search.embeddings.apiKeyEnv', 'must be the NAME of an environment variable holding the key (never the key itself)'],
    ['an embeddings URL without a scheme', { search: { embeddings: { baseUrl: 'localhost:11434', model: 'm' } } }, 'switchboard.search.embeddings.baseUrl', 'must be an http:// or https:// URL up to the API version, e.g. http://127.0.0.1:11434/v1'],
    ['nameBudget too small', { nameBudget: 15 }, 'switchboard.nameBudget', 'must be at least 16 (got 15)'],
    ['nameBudget too big', { nameBudget: 65 }, 'switchboard.nameBudget', 'must be at most 64 (got 65)'],
    ['nameBudget not an integer', { nameBudget: 30.5 }, 'switchboard.nameBudget', 'must be a whole number (got 30.5)'],
    ['a port out of range', { http: { port: 70000 } }, 'switchboard.http.port', 'must be at most 65535 (got 70000)'],
    ['a port given as a string', { http: { port: '80' } }, 'switchboard.http.port', 'must be a number (got string "80")'],
    [
      'a bad separator',
      { separator: '.' },
      'switchboard.separator',
      'must be 1 to 4 characters from A-Z a-z 0-9 _ - (the only ones tool names allow)',
    ],
    ['a non-array allowedOrigins', { http: { allowedOrigins: 'x' } }, 'switchboard.http.allowedOrigins', 'must be an array (got string "x")'],
    ['a non-object block', 5, 'switchboard', 'must be an object (got number 5)'],
  ];
  it.each(settingsCases)('rejects %s', async (_name, block, field, reason) => {
    const err = await loadError({ mcpServers: {}, switchboard: block });
    expect(err.serverKey).toBeUndefined();
    expect(err.message).toBe(`${path.join(tmp.dir, '.mcp.json')}: field "${field}": ${reason}`);
  });
});

describe('switchboard.json beside the config file', () => {
  it('is merged, with keys in the main file winning (http merged key by key)', async () => {
    await tmp.write('switchboard.json', { separator: '__', nameBudget: 32, http: { host: '0.0.0.0', port: 4000 } });
    const config = await load({ mcpServers: {}, switchboard: { nameBudget: 40, http: { port: 5000 } } });
    expect(config.settings).toMatchObject({ separator: '__', nameBudget: 40, http: { host: '0.0.0.0', port: 5000 } });
  });

  it('applies alone when the main file has no switchboard block', async () => {
    await tmp.write('switchboard.json', { requestTimeoutMs: 1234 });
    expect((await load({ mcpServers: {} })).settings.requestTimeoutMs).toBe(1234);
  });

  it('may wrap its settings in a "switchboard" key', async () => {
    await tmp.write('switchboard.json', { switchboard: { separator: '-' } });
    expect((await load({ mcpServers: {} })).settings.separator).toBe('-');
  });

  it('reports its own errors with its own file name', async () => {
    const sidecar = await tmp.write('switchboard.json', { http: { hots: 'x' } });
    const err = await loadError({ mcpServers: {} });
    expect(err.message).toBe(`${sidecar}: field "http.hots": unknown setting; did you mean "host"?`);
  });

  it('reports invalid JSON in it', async () => {
    const sidecar = await tmp.write('switchboard.json', '{"separator": }');
    const err = await loadError({ mcpServers: {} });
    expect(err.message).toBe(`${sidecar}: invalid JSON: unexpected "}", expected a value at line 1, column 15`);
  });

  it('is not read for a config file that is itself named switchboard.json', async () => {
    const config = await load({ mcpServers: { a: { command: 'x' } }, switchboard: { separator: '-' } }, 'switchboard.json');
    expect(config.settings.separator).toBe('-');
  });
});
