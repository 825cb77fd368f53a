// Bundles the compiled CLI (tsc's dist/) into dist/bundle/ with esbuild, as the last step of
// `npm run build`: the command users run (bin/switchboard.js) loads these files. Why: a stdio
// session's first call waits mostly for the gateway's modules to load, and Node resolves, reads,
// compiles and links each ES module on its own; some 330 files at every start became a handful of
// chunks: the first call 902 -> 675 ms, the same build unbundled and bundled
// (docs/decisions/0010-bundled-cli.md).
//
// What stays outside the bundle, loaded from node_modules as before: better-sqlite3 (a native addon),
// pino-pretty, and the terminal UI's ink and react (react-devtools-core is an optional import of ink's).
// pino itself is bundled (as 20-odd CommonJS files it cost ~20 ms of CPU at every start); its pretty
// printer on a terminal runs in a worker thread pino starts by file name, so src/logging/logger.ts
// takes that transport from the pino package in node_modules. Dynamic imports stay dynamic
// (code splitting): what `serve --stdio` never loads (the HTTP face, Prometheus, the TUI) is a
// separate chunk it never reads. Every chunk sits flat in dist/bundle/, one level below the package
// root as dist/<folder>/ is, so paths our modules make from import.meta.url ('../../bin', '../ui')
// resolve to the same files.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sdkSharedSchemas } from './sdk-shared-schemas.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bundle');

/** The CLI: split into chunks, each command's code loaded by the runs that use it. */
const MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');

/**
 * What bin/switchboard.js imports before the CLI, each one self-contained file: Node resolves, reads,
 * compiles and links each ES module in turn, so one file instead of a dozen chunks is sooner.
 *   - `serve-prestart.js`, serve's early start: `serve --stdio` spawns its servers from it before
 *     anything else loads (~15 ms sooner as one file);
 *   - `compile-cache.js`, V8's code cache and the HTTP face's young-generation cap, first of all;
 *   - `connect-main.js`, the stdio shim's fast path, started with every client window.
 * Each holds the only copy of the modules listed with it, the ones that keep state (the children
 * waiting for adoption, the stdin look, the tracked process trees, the marker children get, what the
 * early start did, serve's signals until its shutdown takes them; the cache and the cap turned on
 * once): the rest of the bundle, and the other files, import those from it. Modules without state
 * may be in several (the config's plain readers, the identity hash), which is only bytes; a class
 * compared with `instanceof` across files would have to be held too (none is). checkStandalone()
 * fails the build when a held module is bundled anywhere else.
 */
const STANDALONE = [
  { file: 'serve-prestart.js', modules: ['cli/serve-prestart.js', 'cli/early-signals.js', 'servers/prestart.js', 'gateway/stdin-peek.js', 'servers/process-tree.js', 'config/self-reference.js'] },
  { file: 'compile-cache.js', modules: ['cli/compile-cache.js', 'cli/young-generation-cap.js'] },
  { file: 'connect-main.js', modules: ['cli/connect-main.js'] },
].map(({ file, modules }) => ({ file, modules: modules.map((module) => path.join(ROOT, 'dist', module)) }));

/** Imports of a module another standalone file holds become imports of that file (flat in dist/bundle/, so './<file>' names it from anywhere). */
const sharedFrom = (/** @type {string | undefined} */ building) => ({
  name: 'standalone-shared',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onResolve({ filter: /^\.\.?\// }, (args) => {
      const module = path.resolve(args.resolveDir, args.path);
      const holder = STANDALONE.find((s) => s.file !== building && s.modules.includes(module));
      return holder ? { path: `./${holder.file}`, external: true } : undefined;
    });
  },
});
/**
 * Fails the build when a standalone file's promise does not hold: a module it holds bundled
 * anywhere else (a second copy of its state, say an import the plugin did not recognise), or held
 * modules whose exports `export *` would lose (a name two of them export, a default export).
 * @param {Record<string, import('esbuild').Metafile['outputs'][string]>} outputs
 */
async function checkStandalone(outputs) {
  const problems = [];
  // Every held module's exports, from one unbundled pass over all of them.
  const { metafile: own } = await build({ entryPoints: STANDALONE.flatMap((s) => s.modules), bundle: false, write: false, metafile: true, format: 'esm', logLevel: 'silent', outdir: STAGE, absWorkingDir: ROOT });
  const exportsOf = new Map(Object.values(own.outputs).filter((o) => o.entryPoint).map((o) => [path.resolve(ROOT, /** @type {string} */ (o.entryPoint)), o.exports]));
  for (const { file, modules } of STANDALONE) {
    for (const [output, { inputs }] of Object.entries(outputs)) {
      if (output.endsWith('.map') || path.basename(output) === file) continue;
      for (const module of modules) if (Object.keys(inputs).some((input) => path.resolve(ROOT, input) === module)) problems.push(`${path.relative(ROOT, module)} is bundled into ${path.basename(output)} as well as ${file}`);
    }
    const owners = new Map();
    for (const module of modules) {
      const names = exportsOf.get(module);
      if (!names) throw new Error(`scripts/bundle.mjs: no exports read for ${path.relative(ROOT, module)}`);
      for (const name of names) {
        if (name === 'default') problems.push(`${path.relative(ROOT, module)} has a default export, which ${file} cannot pass on`);
        else if (owners.has(name)) problems.push(`${name} is exported by both ${owners.get(name)} and ${path.relative(ROOT, module)}, so ${file} would drop it`);
        else owners.set(name, path.relative(ROOT, module));
      }
    }
  }
  if (problems.length) throw new Error(`scripts/bundle.mjs: the standalone files are wrong:\n  ${problems.join('\n  ')}`);
}
const EXTERNAL = ['better-sqlite3', 'pino-pretty', 'ink', 'react', 'react-devtools-core'];

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

/**
 * The SDK's client and server each import their copy of ajv's provider from their Node shims
 * (`_shims` -> dist/shimsNode.mjs) for a default validator the gateway never uses: two copies of
 * ajv compiled and evaluated at every start. The shims get scripts/lazy-json-schema-validator.mjs
 * instead, which loads the package's own validator on first use. Only the one import line changes;
 * a shims file that no longer has it exactly once is left as it is, with a warning.
 */
const LAZY_VALIDATOR = path.join(ROOT, 'scripts', 'lazy-json-schema-validator.mjs');
const sdkLazyValidator = {
  name: 'sdk-lazy-json-schema-validator',
  /** @param {import('esbuild').PluginBuild} pluginBuild */
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /[\\/]@modelcontextprotocol[\\/](client|server)[\\/]dist[\\/]shimsNode\.mjs$/ }, (args) => {
      const pkg = /@modelcontextprotocol[\\/](client|server)[\\/]/.exec(args.path)?.[1];
      const source = readFileSync(args.path, 'utf8');
      const line = /^import \{ (\w+) as AjvJsonSchemaValidator \} from "\.\/ajvProvider-[\w-]+\.mjs";$/gm;
      const found = source.match(line) ?? [];
      if (found.length !== 1) {
        return { contents: source, loader: 'js', warnings: [{ text: `${path.relative(ROOT, args.path)}: its ajv import changed; ajv stays loaded at start` }] };
      }
      const lazy = `import { lazyValidatorClass } from ${JSON.stringify(LAZY_VALIDATOR)};\nconst AjvJsonSchemaValidator = lazyValidatorClass(${JSON.stringify(`@modelcontextprotocol/${pkg}/validators/ajv`)});`;
      return { contents: source.replace(line, lazy), loader: 'js', resolveDir: path.dirname(args.path) };
    });
  },
};

// Built aside, then moved in file by file: a gateway already running from the previous build still
// finds the chunks it has yet to load (chunk names carry a hash of their content; each rename
// replaces a file whole). Files of earlier builds are removed once STALE_AFTER_MS old.
const STAGE = `${OUT}.staging-${process.pid}`;
const STALE_AFTER_MS = 7 * 24 * 3600 * 1000;
rmSync(STAGE, { recursive: true, force: true });
/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  // A package's ES build where it ships one (cockatiel): its named exports survive a dynamic import.
  mainFields: ['module', 'main'],
  external: EXTERNAL,
  // CommonJS dependencies bundled into ES modules still call require() for Node's own modules.
  banner: { js: "import { createRequire as __switchboardRequire } from 'node:module';\nconst require = __switchboardRequire(import.meta.url);" },
  // Through tsc's own maps back to src/ (and to each package's file): stack traces with
  // --enable-source-maps, and `npm run bench -- --profile` telling our code from the packages'.
  sourcemap: 'linked',
  sourcesContent: false,
  logLevel: 'warning',
  metafile: true,
  absWorkingDir: ROOT,
};
const sharedSchemas = sdkSharedSchemas(ROOT);
const results = await Promise.all([
  build({ ...common, entryPoints: [MAIN], outdir: STAGE, splitting: true, plugins: [zodEnglishOnly, sdkLazyValidator, sharedSchemas.plugin, sharedFrom(undefined)] }),
  ...STANDALONE.map(({ file, modules }) =>
    build({
      ...common,
      // Its first module first (its side effects, in their order), and every one's exports.
      stdin: { contents: modules.map((module) => `export * from ${JSON.stringify(module)};`).join('\n'), resolveDir: ROOT, sourcefile: file, loader: 'js' },
      outfile: path.join(STAGE, file),
      plugins: [zodEnglishOnly, sdkLazyValidator, sharedSchemas.plugin, sharedFrom(file)],
    }),
  ),
]);
const result = { metafile: { outputs: Object.assign({}, ...results.map((r) => r.metafile.outputs)) } };
for (const file of sharedSchemas.unused()) process.stderr.write(`bundle: warning: ${path.relative(ROOT, file)} was planned for the SDK's shared schemas but no build loaded it (a package resolved elsewhere?); its copy builds its own\n`);
try {
  await checkStandalone(result.metafile.outputs);
} catch (error) {
  rmSync(STAGE, { recursive: true, force: true }); // the current bundle stays as it was
  throw error;
}
mkdirSync(OUT, { recursive: true });
const fresh = new Set(readdirSync(STAGE));
for (const name of fresh) renameSync(path.join(STAGE, name), path.join(OUT, name));
rmSync(STAGE, { recursive: true, force: true });
const now = Date.now();
for (const name of readdirSync(OUT)) {
  const file = path.join(OUT, name);
  if (!fresh.has(name) && now - statSync(file).mtimeMs > STALE_AFTER_MS) rmSync(file, { recursive: true, force: true });
}
const outputs = Object.entries(result.metafile.outputs).filter(([file]) => !file.endsWith('.map'));
const bytes = outputs.reduce((sum, [, o]) => sum + o.bytes, 0);
process.stdout.write(`bundle: ${outputs.length} modules, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${path.relative(ROOT, OUT)}/\n`);
