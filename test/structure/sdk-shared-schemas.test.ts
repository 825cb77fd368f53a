// The bundle's plugin that lets the MCP SDK's client and server copies build their wire schemas once
// (scripts/sdk-shared-schemas.mjs): on two packages laid out as the SDK ships them, the changed memos
// really share one build between the copies, and anything unexpected (other versions, other builder
// text, a memo written otherwise) changes nothing. The real SDK's bundle is checked in bundle.test.ts.
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, tempDir } from '../helpers/gateway.js';
import { planSharedSchemas } from '../../scripts/sdk-shared-schemas.mjs';

/** One package's file, as the SDK's build writes it: each era's builder in its region, memoized. */
function sdkFile(tag: string, builder2025 = 'return { era: "2025", parts: [1, 2] };', helper = 'const FAMILY_KEYS = ["a", "b"];') {
  const era = (name: string, year: string, body: string) =>
    [
      `//#region ../core-internal/src/wire/rev${name}/buildSchemas.ts`,
      `function build${year === '2025' ? '$1' : ''}() {`,
      `\tglobalThis.__builds.push(${JSON.stringify(`${tag} ${year}`)});`,
      `\t${body}`,
      `}`,
      `let memo${year === '2025' ? '$1' : ''};`,
      `function buildSchemas${year}() {`,
      `\treturn memo${year === '2025' ? '$1' : ''} ??= build${year === '2025' ? '$1' : ''}();`,
      `}`,
      `//#endregion`,
    ].join('\n');
  // The pushed tag differs per copy, so the regions differ unless the tag is left out of the text: put it after.
  return `//#region ../core-internal/src/wire/resultFamilies.ts\n${helper}\n//#endregion\n${era('2025-11-25', '2025', builder2025)}\n${era('2026-07-28', '2026', 'return { era: "2026" };')}\nexport { buildSchemas2025, buildSchemas2026 };\n`.replaceAll(JSON.stringify(`${tag} 2025`), 'TAG2025').replaceAll(JSON.stringify(`${tag} 2026`), 'TAG2026');
}

async function fakeRoot(files: { client: string; server: string }, versions = { client: '9.9.9', server: '9.9.9' }, ownZod?: 'client'): Promise<string> {
  const root = await tempDir();
  // zod as the packages find it: the checkout's own, or a copy of the client's (another zod).
  mkdirSync(path.join(root, 'node_modules'), { recursive: true });
  symlinkSync(path.join(REPO, 'node_modules/zod'), path.join(root, 'node_modules/zod'), 'dir');
  if (ownZod) {
    const zod = path.join(root, 'node_modules/@modelcontextprotocol', ownZod, 'node_modules/zod');
    mkdirSync(zod, { recursive: true });
    writeFileSync(path.join(zod, 'package.json'), JSON.stringify({ name: 'zod', version: '4.0.0', exports: { './v4': './v4.js' } }));
    writeFileSync(path.join(zod, 'v4.js'), 'module.exports = {};\n');
  }
  for (const pkg of ['client', 'server'] as const) {
    const dir = path.join(root, 'node_modules/@modelcontextprotocol', pkg);
    mkdirSync(path.join(dir, 'dist'), { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: `@modelcontextprotocol/${pkg}`, version: versions[pkg], main: 'dist/index.js' }));
    writeFileSync(path.join(dir, 'dist', `src-${pkg}.mjs`), `const TAG2025 = "${pkg} 2025", TAG2026 = "${pkg} 2026";\n${files[pkg]}`);
    writeFileSync(path.join(dir, 'dist', 'index.js'), 'module.exports = {};\n');
  }
  return root;
}

describe('the SDK schema-sharing plugin (scripts/sdk-shared-schemas.mjs)', () => {
  afterEach(() => {
    // The fake packages' shared sets, so a second run in the same process builds afresh.
    const g = globalThis as Record<symbol, unknown>;
    for (const era of ['2025-11-25', '2026-07-28']) for (const symbol of Object.getOwnPropertySymbols(g)) if (symbol.description?.startsWith(`switchboard:mcp-sdk-schemas:9.9.9:${era}:`)) delete g[symbol];
  });

  it('makes the two copies share one build per era, whichever builds first', async () => {
    const root = await fakeRoot({ client: sdkFile('client'), server: sdkFile('server') });
    const plan = planSharedSchemas(root);
    if ('problem' in plan) throw new Error(plan.problem);
    expect([...plan.files.keys()].map((f) => path.basename(f)).sort()).toEqual(['src-client.mjs', 'src-server.mjs']);
    const modules: Record<string, { buildSchemas2025(): unknown; buildSchemas2026(): unknown }> = {};
    for (const [file, changes] of plan.files) {
      expect(changes).toHaveLength(2);
      let source = readFileSync(file, 'utf8');
      for (const { from, to } of changes) source = source.replace(from, () => to);
      const out = file.replace(/\.mjs$/, '.shared.mjs');
      writeFileSync(out, source);
      modules[path.basename(file)] = await import(pathToFileURL(out).href);
    }
    const g = globalThis as { __builds?: string[] };
    g.__builds = [];
    const server = modules['src-server.mjs']!;
    const client = modules['src-client.mjs']!;
    const fromServer = server.buildSchemas2025();
    expect(client.buildSchemas2025()).toBe(fromServer);
    const fromClient = client.buildSchemas2026();
    expect(server.buildSchemas2026()).toBe(fromClient);
    expect(g.__builds).toEqual(['server 2025', 'client 2026']);
    delete g.__builds;
  });

  it('changes nothing when the versions, zod, a builder or its helper differ, or a memo is written otherwise', async () => {
    const versions = planSharedSchemas(await fakeRoot({ client: sdkFile('client'), server: sdkFile('server') }, { client: '9.9.9', server: '9.9.8' }));
    expect(versions).toEqual({ problem: expect.stringContaining('differ in version') });
    const zod = planSharedSchemas(await fakeRoot({ client: sdkFile('client'), server: sdkFile('server') }, undefined, 'client'));
    expect(zod).toEqual({ problem: expect.stringContaining('different copies of zod') });
    const helper = planSharedSchemas(await fakeRoot({ client: sdkFile('client'), server: sdkFile('server', undefined, 'const FAMILY_KEYS = ["a"];') }));
    expect(helper).toEqual({ problem: expect.stringContaining('wire/resultFamilies.ts is not the same text') });
    const builders = planSharedSchemas(await fakeRoot({ client: sdkFile('client'), server: sdkFile('server', 'return { era: "2025", parts: [1] };') }));
    expect(builders).toEqual({ problem: expect.stringContaining('2025-11-25 schema builders are not the same') });
    const memo = planSharedSchemas(await fakeRoot({ client: sdkFile('client').replace('return memo$1 ??= build$1();', 'memo$1 ??= build$1();\n\treturn memo$1;'), server: sdkFile('server').replace('return memo$1 ??= build$1();', 'memo$1 ??= build$1();\n\treturn memo$1;') }));
    expect(memo).toEqual({ problem: expect.stringContaining("buildSchemas2025's memo is not written as expected") });
  });
});
