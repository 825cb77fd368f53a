// @ts-check
// Reads a V8 .cpuprofile (what `node --cpu-prof` writes) and tells where the time went: self time
// per function and per area (a package, Switchboard's own files, Node internals, native), and
// inclusive time per Switchboard function, with dist/ locations mapped back to src/ through the
// build's source maps.
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT_DIR } from './root-modules.mjs';

/** @type {Map<string, SourceMap | null>} */
const sourceMaps = new Map();

/** @param {string} file */
function sourceMapOf(file) {
  if (!sourceMaps.has(file)) {
    let map = null;
    try {
      if (existsSync(`${file}.map`)) map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    } catch {
      map = null;
    }
    sourceMaps.set(file, map);
  }
  return sourceMaps.get(file) ?? null;
}

/** @param {string} url */
function fileOf(url) {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return url;
    }
  }
  return url;
}

/**
 * Where a frame lives, readable: src/x.ts:line for Switchboard (through the source map),
 * package/relative/file.js:line for dependencies, node:internal/... for Node.
 * @param {{url: string, lineNumber: number, columnNumber: number}} frame
 * @param {string} root the folder holding the profiled dist/
 */
export function locate(frame, root) {
  const file = fileOf(frame.url);
  if (!file) return '';
  const dist = path.join(root, 'dist') + path.sep;
  if (file.startsWith(dist)) {
    const entry = /** @type {any} */ (sourceMapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber));
    if (entry?.originalSource) {
      const original = path.relative(root, path.resolve(path.dirname(file), fileOf(entry.originalSource)));
      return `${original}:${entry.originalLine + 1}`;
    }
    return `${path.relative(root, file)}:${frame.lineNumber + 1}`;
  }
  const nm = file.lastIndexOf(`node_modules${path.sep}`);
  if (nm >= 0) return `${file.slice(nm + 'node_modules/'.length)}:${frame.lineNumber + 1}`;
  return `${file}:${frame.lineNumber + 1}`;
}

/**
 * The area a frame's time is charged to.
 * @param {{url: string, functionName: string, lineNumber: number, columnNumber: number}} frame
 * @param {string} root the folder holding the profiled dist/
 */
export function areaOf(frame, root) {
  const dist = path.join(root, 'dist') + path.sep;
  const file = fileOf(frame.url);
  if (!file) {
    if (frame.functionName === '(garbage collector)') return 'V8 garbage collector';
    if (frame.functionName === '(program)') return 'V8/native (program)';
    if (frame.functionName === '(idle)') return '(idle)';
    return 'native/builtins';
  }
  if (file.startsWith(dist)) {
    // The bundle (dist/bundle/) holds packages' code too: its source map tells whose a line is.
    const original = /** @type {any} */ (sourceMapOf(file)?.findEntry(frame.lineNumber, frame.columnNumber))?.originalSource;
    if (original) {
      const source = path.resolve(path.dirname(file), fileOf(original));
      // The innermost package: the SDK's own bundles keep ajv's paths under .pnpm/.../node_modules/ajv.
      const pkg = source.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/);
      if (pkg) return pkg[1];
      return `switchboard ${path.relative(path.join(root, 'src'), source)}`;
    }
    // A bundle line with no source behind it: esbuild's own glue between modules.
    if (file.startsWith(path.join(dist, 'bundle') + path.sep)) return 'bundle (esbuild glue)';
    return `switchboard ${path.relative(dist, file).replace(/\.js$/, '.ts')}`;
  }
  const match = file.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) return match[1];
  if (file.startsWith('node:')) {
    const m = file.match(/^node:(?:internal\/)?([a-z_]+)/);
    return `node:${m ? m[1] : 'internal'}`;
  }
  return path.relative(ROOT_DIR, file);
}

/**
 * @param {any} profile a parsed .cpuprofile
 * @param {{skipUs?: number, untilUs?: number, wallMs?: number, root?: string}} [window] only samples this far after
 *   the profile start; `root` holds the profiled dist/ (default: the checkout)
 */
export function analyzeProfile(profile, window = {}) {
  const root = window.root ?? ROOT_DIR;
  /** @type {Map<number, any>} */
  const nodes = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parents = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const samples = /** @type {number[]} */ (profile.samples);
  const deltas = /** @type {number[]} */ (profile.timeDeltas);
  const skip = window.skipUs ?? 0;
  const until = window.untilUs ?? Infinity;

  /** @type {Map<string, {name: string, where: string, area: string, selfUs: number}>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const areas = new Map();
  /** @type {Map<string, {name: string, where: string, us: number}>} */
  const inclusive = new Map();
  /** @type {Map<number, {key: string, name: string, where: string, area: string}>} */
  const frameInfo = new Map();
  const info = (/** @type {number} */ id) => {
    let found = frameInfo.get(id);
    if (!found) {
      const frame = nodes.get(id).callFrame;
      const name = frame.functionName || '(anonymous)';
      const where = locate(frame, root);
      found = { key: `${name} ${where}`, name, where, area: areaOf(frame, root) };
      frameInfo.set(id, found);
    }
    return found;
  };

  let t = 0;
  let busyUs = 0;
  let idleUs = 0;
  for (let i = 0; i < samples.length; i++) {
    t += deltas[i];
    if (t < skip || t > until) continue;
    const dt = deltas[i + 1] ?? deltas[i];
    const leaf = info(samples[i]);
    if (leaf.area === '(idle)') {
      idleUs += dt;
      continue;
    }
    busyUs += dt;
    const entry = self.get(leaf.key) ?? { name: leaf.name, where: leaf.where, area: leaf.area, selfUs: 0 };
    entry.selfUs += dt;
    self.set(leaf.key, entry);
    areas.set(leaf.area, (areas.get(leaf.area) ?? 0) + dt);
    // Inclusive time of Switchboard's own functions: each function counted once per sample.
    const seen = new Set();
    for (let id = samples[i], depth = 0; id !== undefined && depth < 500; id = /** @type {number} */ (parents.get(id)), depth++) {
      const frame = info(id);
      if (!frame.area.startsWith('switchboard') || seen.has(frame.key)) continue;
      seen.add(frame.key);
      const inc = inclusive.get(frame.key) ?? { name: frame.name, where: frame.where, us: 0 };
      inc.us += dt;
      inclusive.set(frame.key, inc);
    }
  }
  const pct = (/** @type {number} */ us) => Math.round((1000 * us) / Math.max(1, busyUs)) / 10;
  return {
    busy_ms: Math.round(busyUs / 1000),
    idle_ms: Math.round(idleUs / 1000),
    areas: [...areas].sort((a, b) => b[1] - a[1]).map(([area, us]) => ({ area, ms: Math.round(us / 1000), pct: pct(us) })),
    self: [...self.values()].sort((a, b) => b.selfUs - a.selfUs).map((e) => ({ name: e.name, where: e.where, area: e.area, ms: Math.round(e.selfUs / 100) / 10, pct: pct(e.selfUs) })),
    switchboard_inclusive: [...inclusive.values()].sort((a, b) => b.us - a.us).map((e) => ({ name: e.name, where: e.where, ms: Math.round(e.us / 100) / 10, pct: pct(e.us) })),
  };
}
