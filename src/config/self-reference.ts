// Owns recognising Switchboard in its own config: an entry that would start this gateway (which
// would read the same file and start itself again, without end), and the environment marker a
// gateway hands its children so a copy that slipped through (a wrapper script) notices it.
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StdioServerConfig } from './types.js';

/** Environment variable listing the config files of the gateways above this process (path.delimiter-separated). */
export const GATEWAY_CHAIN_ENV = 'SWITCHBOARD_GATEWAY_CONFIGS';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Entry points of this install: the bin, the bundled and the compiled CLI, the CLI source (tsx). */
const ENTRY_POINTS = ['bin/switchboard.js', 'dist/bundle/main.js', 'dist/cli/main.js', 'src/cli/main.ts'].map((p) => realOrSame(path.join(ROOT, p)));

function realOrSame(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * Why a stdio entry runs Switchboard itself (undefined when it does not): its command is the
 * `switchboard` bin, or its command or an argument is one of this install's entry points.
 */
export function selfReference(server: Pick<StdioServerConfig, 'command' | 'args' | 'cwd'>, baseDir: string): string | undefined {
  const base = path.basename(server.command).replace(/\.(cmd|exe|js)$/i, '');
  if (base === 'switchboard') return `its command "${server.command}" is the switchboard CLI`;
  for (const part of [server.command, ...server.args]) {
    if (!/(switchboard\.js|main\.[jt]s)$/.test(part)) continue;
    const resolved = realOrSame(path.resolve(server.cwd ?? baseDir, part));
    if (ENTRY_POINTS.includes(resolved)) return `it runs this gateway (${part})`;
  }
  if (/^(npx|pnpx|bunx)$/.test(base) && server.args.some((a) => /^switchboard(@|$)/.test(a))) return 'it runs switchboard through npx';
  return undefined;
}

let forChildren: string | undefined;

/** From now on, servers this process starts inherit the marker naming `configFile` (not this process itself: it re-reads that file on every edit). */
export function markChildren(configFile: string): void {
  forChildren = [...gatewayChain(), configFile].join(path.delimiter);
}

/** The environment entry a started server gets, if this process serves a config. */
export function childMarker(): Record<string, string> {
  return forChildren === undefined ? {} : { [GATEWAY_CHAIN_ENV]: forChildren };
}

/** Config files of the gateways this process runs under (from the inherited marker). */
export function gatewayChain(env: NodeJS.ProcessEnv = process.env): string[] {
  return (env[GATEWAY_CHAIN_ENV] ?? '').split(path.delimiter).filter(Boolean);
}
