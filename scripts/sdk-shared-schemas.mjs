// @ts-check
// An esbuild plugin for scripts/bundle.mjs: the MCP SDK's client and server packages each carry their
// own copy of the SDK's core, so each builds the protocol's wire schemas (one set per era, 2025-11-25
// and 2026-07-28, ~150 zod schemas each) on its first validation. A gateway uses both packages: the
// server's copy builds them for its client's `initialize`, and the client's copy builds the same set
// again for its first downstream handshake (22.5 ms profiled at a stdio session's start, the largest item
// between the gateway's `initialize` answer and its first call, docs/performance.md).
//
// When both packages are the same version, resolve the same zod, and their build functions (with the
// one helper module they call, wire/resultFamilies.ts) are the same text, each copy's memo is pointed
// at one place shared by the process (a registry symbol keyed by the version, the era and a hash of
// that text), so whichever copy builds first builds for both. Besides zod and that helper, the
// builders use only constants of the shared @modelcontextprotocol/core, no per-copy class or state, so
// the schemas are the same either way. Anything unexpected (other versions, another zod, other text, a
// memo written otherwise) leaves the files as they are, with a warning at build time. Tested by
// test/structure/sdk-shared-schemas.test.ts; the real bundle is checked by test/structure/bundle.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const PACKAGES = ['client', 'server'];
/** Code the builders call that sits outside their own regions: compared too, and part of every key. */
const HELPER_REGIONS = ['//#region ../core-internal/src/wire/resultFamilies.ts\n'];
const ERAS = [
  { era: '2025-11-25', builder: 'buildSchemas2025' },
  { era: '2026-07-28', builder: 'buildSchemas2026' },
];

/**
 * What to change in each package's file: the memo line of each era, and its shared replacement.
 * @param {string} root the checkout (its node_modules holds the SDK)
 * @returns {{ files: Map<string, Array<{ from: string, to: string }>> } | { problem: string }}
 */
export function planSharedSchemas(root) {
  /** @type {Array<{ pkg: string, file: string, version: string, zod: string, source: string }>} */
  const copies = [];
  for (const pkg of PACKAGES) {
    const dir = packageDir(root, `@modelcontextprotocol/${pkg}`);
    if (!dir) return { problem: `@modelcontextprotocol/${pkg} does not resolve from ${root}` };
    const { version } = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    let zod;
    try {
      zod = realpathSync(createRequire(path.join(dir, 'package.json')).resolve('zod/v4'));
    } catch {
      return { problem: `zod/v4 does not resolve from @modelcontextprotocol/${pkg}` };
    }
    // Each file read once: the one holding the builders is kept with its text.
    const holders = readdirSync(path.join(dir, 'dist'))
      .filter((name) => name.endsWith('.mjs'))
      .map((name) => ({ file: path.join(dir, 'dist', name), source: readFileSync(path.join(dir, 'dist', name), 'utf8') }))
      .filter(({ source }) => source.includes(`function ${ERAS[0].builder}()`));
    if (holders.length !== 1) return { problem: `@modelcontextprotocol/${pkg}: ${holders.length} files define ${ERAS[0].builder}` };
    copies.push({ pkg, version, zod, ...holders[0] });
  }
  if (new Set(copies.map((c) => c.version)).size !== 1) return { problem: `the client and server packages differ in version (${copies.map((c) => c.version).join(', ')})` };
  if (new Set(copies.map((c) => c.zod)).size !== 1) return { problem: `the client and server packages resolve different copies of zod (${copies.map((c) => c.zod).join(', ')})` };
  let helpers = '';
  for (const start of HELPER_REGIONS) {
    const texts = copies.map((c) => regionOf(c.source, start));
    if (texts.some((t) => t === undefined) || new Set(texts).size !== 1) return { problem: `${start.trim().slice('//#region '.length)} is not the same text in both packages` };
    helpers += texts[0];
  }
  /** @type {Map<string, Array<{ from: string, to: string }>>} */
  const files = new Map(copies.map((c) => [c.file, []]));
  for (const { era, builder } of ERAS) {
    const region = `//#region ../core-internal/src/wire/rev${era}/buildSchemas.ts\n`;
    const texts = copies.map((c) => regionOf(c.source, region));
    if (texts.some((t) => t === undefined) || new Set(texts).size !== 1) return { problem: `the ${era} schema builders are not the same text in both packages` };
    const key = `switchboard:mcp-sdk-schemas:${copies[0].version}:${era}:${createHash('sha256').update(helpers + /** @type {string} */ (texts[0])).digest('hex').slice(0, 16)}`;
    for (const copy of copies) {
      const memo = new RegExp(`function ${builder}\\(\\) \\{\\n\\treturn ([\\w$]+) \\?\\?= ([\\w$]+)\\(\\);\\n\\}`, 'g');
      const found = [...copy.source.matchAll(memo)];
      if (found.length !== 1) return { problem: `@modelcontextprotocol/${copy.pkg}: ${builder}'s memo is not written as expected` };
      const [from, cell, build] = found[0];
      files.get(copy.file)?.push({ from, to: `function ${builder}() {\n\treturn ${cell} ??= (globalThis[Symbol.for(${JSON.stringify(key)})] ??= ${build}());\n}` });
    }
  }
  return { files };
}

/** Where a package resolves from `root` (as esbuild finds it, hoisted or not), or undefined. @param {string} root @param {string} name */
function packageDir(root, name) {
  let entry;
  try {
    entry = createRequire(path.join(root, 'package.json')).resolve(name);
  } catch {
    return undefined;
  }
  for (let dir = path.dirname(entry); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest) && JSON.parse(readFileSync(manifest, 'utf8')).name === name) return dir;
  }
  return undefined;
}

/** The text of one `//#region` up to its `//#endregion`, when it occurs exactly once. @param {string} source @param {string} start */
function regionOf(source, start) {
  const at = source.indexOf(start);
  if (at < 0 || source.indexOf(start, at + 1) >= 0) return undefined;
  const end = source.indexOf('//#endregion', at);
  return end < 0 ? undefined : source.slice(at, end);
}

/**
 * The plugin, one instance for every build of the bundle (the plan is read once), and `unused()`, the
 * planned files no build loaded: then the bundle would build the schemas twice after all (a package
 * esbuild resolved elsewhere), which scripts/bundle.mjs reports.
 * @param {string} root
 */
export function sdkSharedSchemas(root) {
  const plan = planSharedSchemas(root);
  const rewritten = new Set();
  let warned = false;
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'sdk-shared-schemas',
    setup(pluginBuild) {
      if ('problem' in plan) {
        if (!warned) pluginBuild.onStart(() => ({ warnings: [{ text: `the SDK's client and server build their wire schemas separately: ${plan.problem}` }] }));
        warned = true;
        return;
      }
      pluginBuild.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/][\w-]+\.mjs$/ }, (args) => {
        const changes = plan.files.get(args.path);
        if (!changes) return undefined;
        let source = readFileSync(args.path, 'utf8');
        // A function as the replacement: a `$` in a name stays as written.
        for (const { from, to } of changes) source = source.replace(from, () => to);
        rewritten.add(args.path);
        return { contents: source, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
  /** Planned files no build has loaded (none when nothing is planned). @returns {string[]} */
  const unused = () => ('files' in plan ? [...plan.files.keys()].filter((file) => !rewritten.has(file)) : []);
  return { plugin, unused };
}
