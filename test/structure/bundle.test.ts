// Guards the shape of the bundle the command runs (scripts/bundle.mjs, docs/decisions/0010): the
// entry points bin/switchboard.js loads exist, every chunk sits flat in dist/bundle/ (the paths our
// modules make from import.meta.url count on it) and imports only chunks that are there or packages
// that resolve from the package root, the packages kept outside stay outside, zod's locales are
// English only, and the SDK's default JSON Schema validator loads ajv on first use only. The suite's other tests run the bundle itself (test/helpers/gateway.ts: CLI).
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/gateway.js';
import { lazyValidatorClass } from '../../scripts/lazy-json-schema-validator.mjs';

const BUNDLE = path.join(REPO, 'dist/bundle');
const files = readdirSync(BUNDLE, { withFileTypes: true });
const onDisk = files.filter((f) => f.isFile() && f.name.endsWith('.js')).map((f) => f.name);
const text = (name: string) => readFileSync(path.join(BUNDLE, name), 'utf8');
const ENTRIES = ['main.js', 'connect-main.js', 'compile-cache.js', 'serve-prestart.js'];
/** Every specifier a chunk imports: top-level import and export statements, and dynamic imports of chunks. */
const importsOf = (source: string) => [
  ...[...source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)";$/gm)].map((m) => m[1]!),
  ...[...source.matchAll(/^import\s*"([^"]+)";$/gm)].map((m) => m[1]!),
  ...[...source.matchAll(/\bimport\("(\.\/[^"]+)"\)/g)].map((m) => m[1]!),
];

/** The chunks of the current build: what the entry points reach (a rebuild leaves a running gateway's older chunks for a while). */
function reachable(): string[] {
  const seen = new Set<string>();
  const queue = ENTRIES.filter((entry) => onDisk.includes(entry));
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    for (const specifier of importsOf(text(name))) if (specifier.startsWith('./') && onDisk.includes(specifier.slice(2))) queue.push(specifier.slice(2));
  }
  return [...seen];
}
const chunks = reachable();

describe('the bundle (dist/bundle)', () => {
  it('has the entry points bin/switchboard.js loads, all chunks flat beside them', () => {
    for (const entry of ENTRIES) expect(chunks).toContain(entry);
    expect(chunks.length).toBeGreaterThan(20);
    expect(files.filter((f) => f.isDirectory()).map((f) => f.name)).toEqual([]);
    const bin = readFileSync(path.join(REPO, 'bin/switchboard.js'), 'utf8');
    const loaded = [...bin.matchAll(/'\.\.\/(dist\/[^']+)'/g)].map((m) => m[1]);
    expect(loaded.length).toBeGreaterThanOrEqual(3);
    for (const file of loaded) expect(file).toMatch(/^dist\/bundle\/[\w-]+\.js$/);
  });

  it('every chunk imports chunks that exist, Node built-ins, or the packages kept outside', () => {
    const require = createRequire(path.join(REPO, 'package.json'));
    const outside = new Set<string>();
    // main.js loads its chunks statically and `serve` through a dynamic import (its own chunk).
    expect(importsOf(text('main.js')).filter((s) => s.startsWith('./')).length).toBeGreaterThan(3);
    expect(text('main.js')).toMatch(/\bimport\("\.\/serve-[\w-]+\.js"\)/);
    for (const chunk of chunks) {
      for (const specifier of importsOf(text(chunk))) {
        if (specifier.startsWith('./')) expect(onDisk, `${chunk} imports ${specifier}`).toContain(specifier.slice(2));
        else if (specifier.startsWith('node:') || !/^[@\w]/.test(specifier)) continue;
        else {
          outside.add(specifier);
          expect(() => require.resolve(specifier), `${chunk} imports ${specifier}`).not.toThrow();
        }
      }
    }
    // Node built-ins imported without the node: prefix by bundled packages are fine; packages are only these.
    const packages = [...outside].filter((s) => !createRequire(import.meta.url)('node:module').isBuiltin(s));
    expect(packages.sort()).toEqual(expect.arrayContaining(['better-sqlite3']));
    // pino is bundled (its pretty printer's worker comes from node_modules: test/logging/terminal.test.ts).
    for (const name of packages) expect(['better-sqlite3', 'pino-pretty', 'ink', 'react', 'react/jsx-runtime', 'react-devtools-core']).toContain(name);
  });

  it('has what bin loads before the CLI in one file each, and the modules holding state only once', () => {
    // One file each (bin/switchboard.js loads them first; serve's early start spawns servers from its
    // own), importing nothing but each other for the state they share.
    const standalone: Record<string, string[]> = { 'serve-prestart.js': [], 'compile-cache.js': [], 'connect-main.js': ['./serve-prestart.js'] };
    for (const [file, allowed] of Object.entries(standalone)) {
      for (const specifier of importsOf(text(file)).filter((s) => s.startsWith('./'))) expect(allowed, `${file} imports ${specifier}`).toContain(specifier);
    }
    // The rest of the bundle imports that state from them: a second copy would be a second registry.
    const holders = (module: string) => chunks.filter((chunk) => text(chunk).includes(`\n// dist/${module}\n`));
    const holding = {
      'serve-prestart.js': ['servers/prestart.js', 'gateway/stdin-peek.js', 'servers/process-tree.js', 'cli/serve-prestart.js', 'config/self-reference.js'],
      'compile-cache.js': ['cli/compile-cache.js', 'cli/young-generation-cap.js'],
    };
    for (const [file, modules] of Object.entries(holding)) for (const module of modules) expect(holders(module), module).toEqual([file]);
    expect(importsOf(text('main.js'))).toEqual(expect.arrayContaining(['./serve-prestart.js', './compile-cache.js']));
  });

  it("keeps zod's English messages and none of its other locales", () => {
    const all = chunks.map(text).join('\n');
    // Each zod locale builds its messages in one `localeError: error()`; English is the one kept.
    expect(all.match(/localeError: error\(\)/g)).toHaveLength(1);
    expect(all).toContain('Invalid input: expected');
    expect(all).not.toContain('Ung\\xFCltige Eingabe'); // German, as esbuild escapes it
  });

  it("loads ajv only when the SDK's default validator is first used, and then validates as the SDK's own", async () => {
    const all = chunks.map(text).join('\n');
    expect(all).not.toContain('require_ajv');
    for (const pkg of ['client', 'server']) {
      expect(all).toContain(`lazyValidatorClass("@modelcontextprotocol/${pkg}/validators/ajv")`);
      const specifier = `@modelcontextprotocol/${pkg}/validators/ajv`;
      const Lazy = lazyValidatorClass(specifier);
      const { AjvJsonSchemaValidator } = (await import(specifier)) as { AjvJsonSchemaValidator: new () => { getValidator(schema: unknown): (input: unknown) => unknown } };
      const schema = { type: 'object', properties: { n: { type: 'integer', minimum: 1 }, when: { type: 'string', format: 'date' } }, required: ['n'] };
      const lazy = new Lazy().getValidator(schema);
      const own = new AjvJsonSchemaValidator().getValidator(schema);
      for (const input of [{ n: 2 }, { n: 0 }, {}, { n: 1, when: 'not a date' }, { n: 1, when: '2026-11-27' }]) expect(lazy(input)).toEqual(own(input));
      expect(lazy({ n: 0 })).toMatchObject({ valid: false });
    }
  });

  it("builds the SDK's wire schemas once for its client and server copies (scripts/sdk-shared-schemas.mjs)", () => {
    const version = JSON.parse(readFileSync(path.join(REPO, 'node_modules/@modelcontextprotocol/server/package.json'), 'utf8')).version as string;
    for (const era of ['2025-11-25', '2026-07-28']) {
      const memo = new RegExp(`return [\\w$]+ \\?\\?= globalThis\\[(?:/\\* @__PURE__ \\*/ )?Symbol\\.for\\("(switchboard:mcp-sdk-schemas:[^"]+)"\\)\\] \\?\\?= [\\w$]+\\(\\);`, 'g');
      const keys = chunks.flatMap((chunk) => [...text(chunk).matchAll(memo)].map((m) => m[1]!)).filter((key) => key.includes(`:${era}:`));
      // One memo in the client's copy and one in the server's, both at the same shared place.
      expect(keys, era).toHaveLength(2);
      expect(new Set(keys).size, era).toBe(1);
      expect(keys[0]).toMatch(new RegExp(`^switchboard:mcp-sdk-schemas:${version.replace(/\./g, '\\.')}:${era}:[0-9a-f]{16}$`));
    }
  });
});
