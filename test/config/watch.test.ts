import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, it, expect } from 'vitest';
import { ConfigError, diffServers, loadConfig, watchConfig, type ConfigWatcher, type LoadedConfig, type ServerConfig } from '../../src/config/index.js';
import { sleep, tempDir, waitFor, type TempDir } from './helpers.js';

let tmp: TempDir;
let watcher: ConfigWatcher | undefined;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await tmp.remove();
});

const stdio = (key: string, extra: object = {}) => ({ key, transport: 'stdio', command: 'node', args: [], env: {}, disabled: false, ...extra }) as ServerConfig;

/** Starts a watcher that records every callback. */
async function startWatching(file: string, initial?: LoadedConfig) {
  const changes: LoadedConfig[] = [];
  const errors: Error[] = [];
  watcher = watchConfig(file, { onChange: (c) => changes.push(c), onError: (e) => errors.push(e), initial, env: { TOKEN: 't' } }, 50);
  await watcher.ready;
  return { changes, errors };
}

const keys = (config: LoadedConfig | undefined) => config?.servers.map((s) => s.key);

describe('watchConfig', { timeout: 60_000 }, () => {
  it('reports added, removed and changed servers, invalid edits, and recovery', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const { changes, errors } = await startWatching(file);
    expect(changes).toEqual([]);
    expect(errors).toEqual([]);

    // add a server
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' }, b: { url: 'https://b.example/mcp' } } });
    await waitFor(() => changes.length === 1, 'the added server');
    expect(keys(changes[0])).toEqual(['a', 'b']);

    // change one
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node', args: ['${TOKEN}'] }, b: { url: 'https://b.example/mcp' } } });
    await waitFor(() => changes.length === 2, 'the changed server');
    expect(diffServers(changes[0].servers, changes[1].servers)).toEqual({ added: [], removed: [], changed: [changes[1].servers[0]] });
    expect(changes[1].servers[0]).toMatchObject({ args: ['t'] });

    // remove one
    await tmp.write('.mcp.json', { mcpServers: { b: { url: 'https://b.example/mcp' } } });
    await waitFor(() => changes.length === 3, 'the removed server');
    expect(diffServers(changes[1].servers, changes[2].servers)).toEqual({ added: [], removed: ['a'], changed: [] });

    // an invalid edit: onError, no onChange
    await tmp.write('.mcp.json', '{"mcpServers": {"b": ');
    await waitFor(() => errors.length >= 1, 'the invalid JSON error');
    expect(errors[0]).toBeInstanceOf(ConfigError);
    expect(errors[0].message).toContain('invalid JSON');

    // a schema error: onError names server and field
    await tmp.write('.mcp.json', { mcpServers: { b: { url: 'nope' } } });
    await waitFor(() => errors.some((e) => (e as ConfigError).field === 'url'), 'the schema error');
    expect(errors.at(-1)!.message).toBe(`${file}: server "b": field "url": must be a valid URL`);
    expect(changes).toHaveLength(3);

    // valid again and different from the last good config
    await tmp.write('.mcp.json', { mcpServers: { b: { url: 'https://b.example/mcp' }, c: { command: 'c' } } });
    await waitFor(() => changes.length === 4, 'recovery');
    expect(keys(changes[3])).toEqual(['b', 'c']);
  });

  it('does not call onChange when a rewrite yields the same config (formatting, or invalid then restored)', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const { changes, errors } = await startWatching(file);

    await writeFile(file, '// same servers, new formatting\n{ "mcpServers": { "a": { "command": "node", "args": [] } } }');
    await tmp.write('switchboard.json', {}); // an empty settings file changes nothing either
    await sleep(600);
    await tmp.write('.mcp.json', '{ broken');
    await waitFor(() => errors.length >= 1, 'the error');
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    await sleep(600);
    expect(changes).toEqual([]);

    // a real change still comes through afterwards
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'deno' } } });
    await waitFor(() => changes.length === 1, 'the real change');
    expect(changes[0].servers[0]).toMatchObject({ command: 'deno' });
  });

  it('follows editors that save by renaming a temp file over the config', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const { changes } = await startWatching(file);

    for (const [i, command] of ['one', 'two', 'three'].entries()) {
      const temp = path.join(tmp.dir, `.mcp.json.tmp${i}`);
      await writeFile(temp, JSON.stringify({ mcpServers: { a: { command } } }));
      await rename(temp, file);
      await waitFor(() => changes.length === i + 1, `rename save ${i + 1}`);
      expect(changes[i].servers[0]).toMatchObject({ command });
    }
  });

  it('coalesces a burst of writes into one reload with the final content', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    const { changes, errors } = await startWatching(file);
    for (let i = 1; i <= 5; i++) await tmp.write('.mcp.json', { mcpServers: { [`s${i}`]: { command: 'x' } } });
    await waitFor(() => keys(changes.at(-1))?.[0] === 's5', 'the final content');
    await sleep(300);
    expect(keys(changes.at(-1))).toEqual(['s5']);
    expect(changes.length).toBeLessThan(5);
    expect(errors).toEqual([]);
  });

  it('reports a deleted file as an error and picks it up again when it comes back', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const { changes, errors } = await startWatching(file);
    await rm(file);
    await waitFor(() => errors.length >= 1, 'the missing-file error');
    expect(errors[0].message).toContain('file not found');
    await tmp.write('.mcp.json', { mcpServers: { z: { command: 'node' } } });
    await waitFor(() => changes.length === 1, 'the recreated file');
    expect(keys(changes[0])).toEqual(['z']);
  });

  it('reloads when switchboard.json beside the config changes', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    const { changes, errors } = await startWatching(file);
    await tmp.write('switchboard.json', { separator: '__' });
    await waitFor(() => changes.length === 1, 'the settings change');
    expect(changes[0].settings.separator).toBe('__');
    await tmp.write('switchboard.json', { seprator: '-' });
    await waitFor(() => errors.length === 1, 'the settings typo');
    expect(errors[0].message).toContain('did you mean "separator"?');
  });

  it('uses the initial config as the baseline', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const initial = await loadConfig(file);
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' }, b: { command: 'node' } } });
    const { changes } = await startWatching(file, initial);
    // the file differs from `initial`, but nothing fires until the file changes again
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' }, b: { command: 'node' }, c: { command: 'node' } } });
    await waitFor(() => changes.length === 1, 'the change');
    expect(keys(changes[0])).toEqual(['a', 'b', 'c']);
  });

  it('reports an invalid file at start and calls onChange once it is fixed', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { type: 'ws' } } });
    const { changes, errors } = await startWatching(file);
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toContain('server "a": field "type"');
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    await waitFor(() => changes.length === 1, 'the fixed file');
  });

  it('ignores other files in the folder', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    const { changes, errors } = await startWatching(file);
    await tmp.write('other.json', '{ not json');
    await tmp.write('.mcp.json.bak', { mcpServers: { a: { command: 'x' } } });
    await sleep(500);
    expect(changes).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('passes an error thrown by onChange to onError', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    const errors: Error[] = [];
    watcher = watchConfig(file, { onChange: () => { throw new Error('boom'); }, onError: (e) => errors.push(e) }, 50);
    await watcher.ready;
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'x' } } });
    await waitFor(() => errors.length === 1, 'the reported error');
    expect(errors[0].message).toBe('boom');
  });

  it('settles ready when closed at once', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    const w = watchConfig(file, { onChange: () => {}, onError: () => {} });
    await w.close();
    await w.ready;
  });

  it('with startAfterMs: ready only after it, an edit made meanwhile is applied once watching, later edits too', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const initial = await loadConfig(file, { TOKEN: 't' });
    const changes: LoadedConfig[] = [];
    const errors: Error[] = [];
    const began = Date.now();
    watcher = watchConfig(file, { onChange: (c) => changes.push(c), onError: (e) => errors.push(e), initial, env: { TOKEN: 't' }, startAfterMs: 600 }, 50);
    // Edited before the watch begins: no event can see it, the read when watching begins does.
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' }, b: { command: 'node' } } });
    await sleep(300);
    expect(changes).toEqual([]);
    await watcher.ready;
    expect(Date.now() - began).toBeGreaterThanOrEqual(550);
    expect(changes.map(keys)).toEqual([['a', 'b']]);
    await tmp.write('.mcp.json', { mcpServers: { b: { command: 'node' } } });
    await waitFor(() => changes.length === 2, 'the edit after the watch began');
    expect(keys(changes[1])).toEqual(['b']);
    expect(errors).toEqual([]);
  });

  it('with startAfterMs and nothing edited meanwhile: no change reported; closed before it begins: never begins, ready settles', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    const initial = await loadConfig(file, { TOKEN: 't' });
    const changes: LoadedConfig[] = [];
    watcher = watchConfig(file, { onChange: (c) => changes.push(c), onError: () => {}, initial, env: { TOKEN: 't' }, startAfterMs: 100 }, 50);
    await watcher.ready;
    expect(changes).toEqual([]);
    await watcher.close();
    // Closed during its delay: close() and ready settle at once, and no watch begins when the delay ends.
    const late = watchConfig(file, { onChange: (c) => changes.push(c), onError: () => {}, initial, startAfterMs: 200 }, 50);
    const closing = Date.now();
    await late.close();
    await late.ready;
    expect(Date.now() - closing).toBeLessThan(150);
    await sleep(600);
    await tmp.write('.mcp.json', { mcpServers: {} });
    await sleep(500);
    expect(changes).toEqual([]);
  });

  it('calls nothing after close()', async () => {
    const file = await tmp.write('.mcp.json', { mcpServers: {} });
    const { changes, errors } = await startWatching(file);
    await watcher!.close();
    await tmp.write('.mcp.json', { mcpServers: { a: { command: 'node' } } });
    await sleep(500);
    expect(changes).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('diffServers', () => {
  it('finds added, removed and changed servers by key', () => {
    const prev = [stdio('a'), stdio('b'), stdio('c'), stdio('d', { env: { X: '1', Y: '2' } })];
    const next = [stdio('e'), stdio('c', { args: ['--x'] }), stdio('a'), stdio('d', { env: { Y: '2', X: '1' } }), stdio('f')];
    expect(diffServers(prev, next)).toEqual({ added: [stdio('e'), stdio('f')], removed: ['b'], changed: [stdio('c', { args: ['--x'] })] });
  });

  it('sees a transport change, a disabled flag and a description as changes', () => {
    const remote = { key: 'a', transport: 'http', url: 'https://a', headers: {}, disabled: false } as ServerConfig;
    expect(diffServers([stdio('a')], [remote]).changed).toEqual([remote]);
    expect(diffServers([stdio('a')], [stdio('a', { disabled: true })]).changed).toHaveLength(1);
    expect(diffServers([stdio('a')], [stdio('a', { description: 'd' })]).changed).toHaveLength(1);
  });

  it('is empty for identical lists', () => {
    expect(diffServers([stdio('a')], [stdio('a')])).toEqual({ added: [], removed: [], changed: [] });
    expect(diffServers([], [])).toEqual({ added: [], removed: [], changed: [] });
  });
});
