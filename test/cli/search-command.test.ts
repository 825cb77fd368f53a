// `switchboard search` and `switchboard embed` as a user runs them, against the memory server from
// npm and a local stand-in embeddings endpoint: detail levels, modes, the fallback note, embedding
// with vectors reused from the store, and usage errors.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddingServer, type EmbeddingStandIn } from '../fixtures/embedding-server.js';
import { npmServer, tempDir, writeConfig } from '../helpers/gateway.js';
import { runCli, runCliJson } from './run-cli.js';

type Json = Record<string, any>;

describe('switchboard search and embed', () => {
  let standIn: EmbeddingStandIn;
  let config: string;
  let plainConfig: string;
  let dataDir: string;
  beforeAll(async () => {
    standIn = await startEmbeddingServer();
    const dir = await tempDir();
    dataDir = path.join(dir, 'data');
    const servers = { memory: npmServer('memory', [], { MEMORY_FILE_PATH: path.join(dir, 'memory.jsonl') }) };
    config = await writeConfig(servers, { search: { embeddings: { baseUrl: standIn.baseUrl, model: 'stand-in' } } }, dir);
    plainConfig = await writeConfig(servers, undefined, path.join(dir, 'plain'));
  });
  afterAll(async () => standIn?.close());

  it('searches at each detail level and in each mode', async () => {
    const minimal = await runCliJson<Json>(['search', 'create', 'entities', '--json', '--detail', 'minimal', '--limit', '3', '--config', config], dataDir);
    expect(minimal.mode).toBe('hybrid');
    expect(minimal.tools[0]).toEqual({ name: 'memory_create_entities', server: 'memory' });
    const full = await runCliJson<Json>(['search', 'create entities', '--json', '--detail', 'full', '--mode', 'lexical', '--config', config], dataDir);
    expect(full.mode).toBe('lexical');
    expect(full.tools[0]).toMatchObject({ name: 'memory_create_entities', tool: 'create_entities', inputSchema: { type: 'object' } });
    const semantic = await runCliJson<Json>(['search', 'remember', 'facts', '--json', '--mode', 'semantic', '--config', config], dataDir);
    expect(semantic.mode).toBe('semantic');
    expect(semantic.tools.length).toBeGreaterThan(0);
    const text = await runCli(['search', 'delete', 'a', 'relation', '--config', config], dataDir);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^NAME\s+SERVER\s+SCORE\s+DESCRIPTION/);
    expect(text.stdout).toMatch(/match\(es\) among 9 tool\(s\), hybrid search/);
  });

  it('without embeddings, semantic search answers lexically and says why on stderr', async () => {
    const result = await runCli(['search', 'create entities', '--mode', 'semantic', '--config', plainConfig], dataDir);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('no embedding provider is configured');
    expect(result.stdout).toContain('lexical search');
    const embed = await runCli(['embed', '--config', plainConfig], dataDir);
    expect(embed.code).not.toBe(0);
    expect(embed.stderr).toContain('No embedding provider is configured');
  });

  it('embeds with progress, then reuses the stored vectors', async () => {
    const first = await runCli(['embed', '--force', '--json', '--config', config], dataDir);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/embedded 9\/9/);
    expect(JSON.parse(first.stdout)).toMatchObject({ tools: 9, requested: 9, model: 'stand-in' });
    const again = await runCliJson<Json>(['embed', '--json', '--config', config], dataDir);
    expect(again).toMatchObject({ tools: 9, requested: 0, fromCache: 9 });
  });

  it('rejects bad flags with a usage error', async () => {
    const bad = await runCli(['search', 'x', '--mode', 'vector', '--config', config], dataDir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--mode must be one of lexical, semantic, hybrid');
    const detail = await runCli(['search', 'x', '--detail', 'huge', '--config', config], dataDir);
    expect(detail.code).toBe(2);
  });
});
