// Bundles the compiled CLI (tsc's dist/) into dist/bundle/ with esbuild, as the last step of
// `npm run build`: the command users run (bin/switchboard.js) loads these files. Why: a stdio
// session's first call waits mostly for the gateway's modules to load, and Node resolves, reads,
// compiles and links each ES module on its own; some 330 files at every start became a handful of
// chunks: the first call 902 -> 675 ms, the same build unbundled and bundled
// (docs/decisions/0010-bundled-cli.md).
//
// What stays outside the bundle, loaded from node_modules as before: better-sqlite3 (a native addon),
// pino and pino-pretty (pino's transports start worker threads by file name), and the terminal UI's
// ink and react (react-devtools-core is an optional import of ink's). Dynamic imports stay dynamic
// (code splitting): what `serve --stdio` never loads (the HTTP face, Prometheus, the TUI) is a
// separate chunk it never reads. Every chunk sits flat in dist/bundle/, one level below the package
// root as dist/<folder>/ is, so paths our modules make from import.meta.url ('../../bin', '../ui')
// resolve to the same files.
import { build } from 'esbuild';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bundle');

/** What bin/switchboard.js imports: the code cache first, the stdio shim's fast path, the CLI. */
const ENTRIES = ['cli/compile-cache.js', 'cli/connect-main.js', 'cli/main.js'].map((file) => path.join(ROOT, 'dist', file));
const EXTERNAL = ['better-sqlite3', 'pino', 'pino-pretty', 'ink', 'react', 'react-devtools-core'];

/**
 * zod's `locales` namespace (error messages in ~50 languages, 366 KB: half of zod's bytes) is
 * exported by zod's entry points, so every start would compile it; nothing here or in the SDK picks a
 * locale, and zod's own default (English) is imported by zod from its own file. The namespace keeps
 * English only. Checked by test/structure/bundle.test.ts.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => {
      if (!/[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(args.importer)) return undefined;
      return { path: path.join(path.dirname(args.importer), '..', 'locales', 'en.js'), namespace: 'zod-locales' };
    });
    pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};\n`,
      resolveDir: path.dirname(args.path),
      loader: 'js',
    }));
  },
};

rmSync(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: ENTRIES,
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // A package's ES build where it ships one (cockatiel): its named exports survive a dynamic import.
  mainFields: ['module', 'main'],
  external: EXTERNAL,
  // CommonJS dependencies bundled into ES modules still call require() for Node's own modules.
  banner: { js: "import { createRequire as __switchboardRequire } from 'node:module';\nconst require = __switchboardRequire(import.meta.url);" },
  plugins: [zodEnglishOnly],
  logLevel: 'warning',
  metafile: true,
});
const outputs = Object.entries(result.metafile.outputs);
const bytes = outputs.reduce((sum, [, o]) => sum + o.bytes, 0);
process.stdout.write(`bundle: ${outputs.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${path.relative(ROOT, OUT)}/\n`);
