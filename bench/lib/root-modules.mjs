// @ts-check
// Loads packages from the project's own node_modules (the ones the gateway is built against), never
// from bench/node_modules: the peers installed there bring their own copies of the MCP SDK and zod,
// and a bare `import` from a file under bench/ would find those first.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/lib/ is two levels down). */
export const ROOT_URL = new URL('../../', import.meta.url);
export const ROOT_DIR = fileURLToPath(ROOT_URL);

const CONDITIONS = ['node', 'import', 'default'];

/**
 * The file an ESM `import` of `subpath` in a package manifest resolves to (the `exports` map with the
 * node/import/default conditions, or `module`/`main`).
 * @param {Record<string, any>} manifest
 * @param {string} subpath '.' or './stdio'
 * @returns {string}
 */
function exportTarget(manifest, subpath) {
  const exports = manifest.exports;
  if (exports === undefined) {
    if (subpath !== '.') throw new Error(`${manifest.name} has no exports map; cannot resolve ${subpath}`);
    return manifest.module ?? manifest.main ?? 'index.js';
  }
  const isSubpathMap = typeof exports === 'object' && Object.keys(exports).some((k) => k.startsWith('.'));
  const entry = isSubpathMap ? exports[subpath] : subpath === '.' ? exports : undefined;
  const target = pick(entry);
  if (!target) throw new Error(`${manifest.name} does not export ${subpath} for import`);
  return target;
}

/** @param {unknown} entry @returns {string | undefined} */
function pick(entry) {
  if (typeof entry === 'string') return entry;
  if (!entry || typeof entry !== 'object') return undefined;
  for (const condition of CONDITIONS) {
    if (condition in entry) {
      const found = pick(/** @type {Record<string, unknown>} */ (entry)[condition]);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The packages the bench loads from the root, by package name and export subpath, with their types.
 * @typedef {{
 *   '@modelcontextprotocol/client': { '.': typeof import('@modelcontextprotocol/client'), './stdio': typeof import('@modelcontextprotocol/client/stdio') },
 *   '@modelcontextprotocol/server': { '.': typeof import('@modelcontextprotocol/server'), './stdio': typeof import('@modelcontextprotocol/server/stdio') },
 *   zod: { '.': typeof import('zod') },
 *   hono: { '.': typeof import('hono') },
 *   '@hono/node-server': { '.': typeof import('@hono/node-server') },
 * }} RootPackages
 */

/**
 * `import()` of a package from the root node_modules, typed as that package.
 * @template {keyof RootPackages} N
 * @template {keyof RootPackages[N] & string} [S='.']
 * @param {N} name package name, e.g. '@modelcontextprotocol/server'
 * @param {S} [subpath] e.g. './stdio'
 * @returns {Promise<RootPackages[N][S]>}
 */
export async function rootImport(name, subpath = /** @type {S} */ ('.')) {
  const dir = new URL(`node_modules/${name}/`, ROOT_URL);
  const manifest = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8'));
  return import(new URL(exportTarget(manifest, subpath), dir).href);
}

/**
 * The version of a package installed under `base` (default: the root).
 * @param {string} name
 * @param {URL} [base]
 * @returns {string | undefined}
 */
export function installedVersion(name, base = ROOT_URL) {
  try {
    return JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, base), 'utf8')).version;
  } catch {
    return undefined;
  }
}
