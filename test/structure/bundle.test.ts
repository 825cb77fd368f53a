// Guards the shape of the bundle the command runs (scripts/bundle.mjs, docs/decisions/0010): the
// entry points bin/switchboard.js loads exist, every chunk sits flat in dist/bundle/ (the paths our
// modules make from import.meta.url count on it) and imports only chunks that are there or packages
// that resolve from the package root, the packages kept outside stay outside, and zod's locales are
// English only. The suite's other tests run the bundle itself (test/helpers/gateway.ts: CLI).
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers/gateway.js';

const BUNDLE = path.join(REPO, 'dist/bundle');
const files = readdirSync(BUNDLE, { withFileTypes: true });
const chunks = files.filter((f) => f.isFile() && f.name.endsWith('.js')).map((f) => f.name);
const text = (name: string) => readFileSync(path.join(BUNDLE, name), 'utf8');
/** Every specifier a chunk imports: top-level import and export statements, and dynamic imports of chunks. */
const importsOf = (source: string) => [
  ...[...source.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)";$/gm)].map((m) => m[1]!),
  ...[...source.matchAll(/^import\s*"([^"]+)";$/gm)].map((m) => m[1]!),
  ...[...source.matchAll(/\bimport\("(\.\/[^"]+)"\)/g)].map((m) => m[1]!),
];

describe('the bundle (dist/bundle)', () => {
  it('has the entry points bin/switchboard.js loads, all chunks flat beside them', () => {
    for (const entry of ['main.js', 'connect-main.js', 'compile-cache.js']) expect(chunks).toContain(entry);
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
        if (specifier.startsWith('./')) expect(chunks, `${chunk} imports ${specifier}`).toContain(specifier.slice(2));
        else if (specifier.startsWith('node:') || !/^[@\w]/.test(specifier)) continue;
        else {
          outside.add(specifier);
          expect(() => require.resolve(specifier), `${chunk} imports ${specifier}`).not.toThrow();
        }
      }
    }
    // Node built-ins imported without the node: prefix by bundled packages are fine; packages are only these.
    const packages = [...outside].filter((s) => !createRequire(import.meta.url)('node:module').isBuiltin(s));
    expect(packages.sort()).toEqual(expect.arrayContaining(['better-sqlite3', 'pino']));
    for (const name of packages) expect(['better-sqlite3', 'pino', 'pino-pretty', 'ink', 'react', 'react/jsx-runtime', 'react-devtools-core']).toContain(name);
  });

  it("keeps zod's English messages and none of its other locales", () => {
    const all = chunks.map(text).join('\n');
    // Each zod locale builds its messages in one `localeError: error()`; English is the one kept.
    expect(all.match(/localeError: error\(\)/g)).toHaveLength(1);
    expect(all).toContain('Invalid input: expected');
    expect(all).not.toContain('Ung\\xFCltige Eingabe'); // German, as esbuild escapes it
  });
});
