// Owns `switchboard import` (the servers of the clients' configs found on this machine, copied into
// Switchboard's config) and `switchboard install|uninstall --client X` (a client's own server list
// replaced by the `switchboard connect` shim, the original kept beside it and put back on uninstall).
// Every change is shown first (--dry-run shows only that); files are written whole (a temporary file
// renamed over) and a client file keeps everything but its servers object.
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import {
  CLIENT_KINDS,
  clientEnvironment,
  clientLocations,
  readClientFile,
  runsSwitchboardShim,
  serversAt,
  toSwitchboardEntry,
  userLocation,
  type ClientConfigLocation,
  type ClientKind,
  type RawEntry,
} from '../config/client-configs.js';
import { selfReference } from '../config/self-reference.js';
import { writeFileAtomic } from '../config/atomic-file.js';
import type { CommonOptions } from './context.js';
import { UsageError } from './errors.js';
import { printJson, table } from './format.js';

const BIN = fileURLToPath(new URL('../../bin/switchboard.js', import.meta.url));
export const BACKUP_SUFFIX = '.switchboard-backup';
/** Node flags of an installed shim entry. */
export const SHIM_NODE_FLAGS = ['--max-semi-space-size=1'];

export interface ImportOptions extends CommonOptions {
  from?: string[];
  dryRun?: boolean;
  json?: boolean;
}

export interface InstallOptions extends CommonOptions {
  client: string;
  dryRun?: boolean;
  json?: boolean;
}

type Action = 'add' | 'exists' | 'rename' | 'skip';
export interface PlannedServer {
  source: string;
  client: string;
  server: string;
  action: Action;
  /** The key it gets in Switchboard's config (rename: a new one). */
  as?: string;
  reason?: string;
}

function sourcesFor(from: string[] | undefined): ClientConfigLocation[] {
  const env = clientEnvironment();
  const wanted = from?.length ? from : [...CLIENT_KINDS];
  return wanted.flatMap((source): ClientConfigLocation[] => {
    if ((CLIENT_KINDS as readonly string[]).includes(source)) return clientLocations(source as ClientKind, env);
    const file = path.resolve(source);
    if (!existsSync(file)) throw new UsageError(`--from ${source}: no such file, and not one of ${CLIENT_KINDS.join(', ')}`);
    const json = readClientFile(file);
    return [{ client: 'claude-code', file, key: json.servers !== undefined && json.mcpServers === undefined ? 'servers' : 'mcpServers', scope: 'user' }];
  });
}

/** What importing these locations into `target` (its current servers) would do. */
export function planImport(locations: ClientConfigLocation[], target: Record<string, RawEntry>, targetFile: string): { plan: PlannedServer[]; servers: Record<string, RawEntry> } {
  const servers = { ...target };
  const plan: PlannedServer[] = [];
  const seenFiles = new Set<string>();
  for (const location of locations) {
    if (path.resolve(location.file) === path.resolve(targetFile) && location.project === undefined) continue; // importing a file into itself
    const found = serversAt(location);
    if (!found) continue;
    const source = location.project !== undefined ? `${location.file} (project ${location.project})` : location.file;
    seenFiles.add(source);
    for (const [key, raw] of Object.entries(found)) {
      const base = { source, client: location.client, server: key };
      const converted = toSwitchboardEntry(raw);
      if ('skip' in converted) {
        plan.push({ ...base, action: 'skip', reason: converted.skip });
        continue;
      }
      const entry = converted.entry;
      if (typeof entry.command === 'string') {
        const self = selfReference({ command: entry.command, args: Array.isArray(entry.args) ? (entry.args as string[]) : [], cwd: entry.cwd as string | undefined }, path.dirname(location.file));
        if (self || runsSwitchboardShim(entry)) {
          plan.push({ ...base, action: 'skip', reason: `runs Switchboard itself${self ? ` (${self})` : ''}` });
          continue;
        }
      }
      const same = Object.entries(servers).find(([, existing]) => isDeepStrictEqual(existing, entry));
      if (same) {
        plan.push({ ...base, action: 'exists', as: same[0] });
        continue;
      }
      let name = key;
      for (let n = 2; servers[name] !== undefined; n++) name = n === 2 ? `${key}-${location.client}` : `${key}-${location.client}-${n}`;
      servers[name] = entry;
      plan.push({ ...base, action: name === key ? 'add' : 'rename', as: name, ...(name !== key && { reason: `"${key}" is already a different server` }) });
    }
  }
  return { plan, servers };
}

/** Writes JSON whole: a temporary file renamed over the target (never half a file). */
function writeJson(file: string, json: unknown, mode?: number): void {
  writeFileAtomic(file, `${JSON.stringify(json, null, 2)}\n`, mode);
}

function printPlan(plan: PlannedServer[], target: string, dryRun: boolean): void {
  if (plan.length === 0) {
    process.stdout.write(`No client config with servers found (looked for ${CLIENT_KINDS.join(', ')}; name a file with --from FILE).\n`);
    return;
  }
  const label: Record<Action, string> = { add: 'add', exists: 'already there', rename: 'add renamed', skip: 'skip' };
  process.stdout.write(
    `${table(
      ['FROM', 'SERVER', 'ACTION', 'AS / WHY'],
      plan.map((p) => [p.source, p.server, label[p.action], p.action === 'skip' || p.action === 'rename' ? `${p.as ?? ''}${p.as && p.reason ? ': ' : ''}${p.reason ?? ''}` : (p.as ?? '')]),
      80,
    )}\n`,
  );
  const added = plan.filter((p) => p.action === 'add' || p.action === 'rename').length;
  process.stdout.write(dryRun ? `Dry run: ${added} server(s) would be added to ${target}.\n` : `${added} server(s) added to ${target}.\n`);
}

function targetOf(options: CommonOptions): { file: string; json: Record<string, unknown>; key: 'mcpServers' | 'servers' } {
  const file = path.resolve(options.config);
  const json = readClientFile(file);
  const key = json.servers !== undefined && json.mcpServers === undefined ? 'servers' : 'mcpServers';
  return { file, json, key };
}

export async function importCommand(options: ImportOptions): Promise<void> {
  const target = targetOf(options);
  const { plan, servers } = planImport(sourcesFor(options.from), (target.json[target.key] as Record<string, RawEntry>) ?? {}, target.file);
  const changed = plan.some((p) => p.action === 'add' || p.action === 'rename');
  if (changed && !options.dryRun) {
    if (existsSync(target.file)) copyFileSync(target.file, `${target.file}${BACKUP_SUFFIX}`);
    writeJson(target.file, { ...target.json, [target.key]: servers });
  }
  if (options.json) return printJson({ target: target.file, dryRun: Boolean(options.dryRun), plan });
  printPlan(plan, target.file, Boolean(options.dryRun));
}

function clientOf(name: string): ClientKind {
  if (!(CLIENT_KINDS as readonly string[]).includes(name)) throw new UsageError(`--client must be one of ${CLIENT_KINDS.join(', ')} (got "${name}")`);
  return name as ClientKind;
}

/** The servers object a client gets: one entry running the shim against Switchboard's config. */
export function shimEntry(client: ClientKind, config: string, dataDir?: string): RawEntry {
  // A small young generation: a shim only relays, and each client runs one (101 -> 77 MB RSS measured).
  const args = [...SHIM_NODE_FLAGS, BIN, 'connect', '--config', config, ...(dataDir ? ['--data-dir', path.resolve(dataDir)] : [])];
  return client === 'vscode' ? { type: 'stdio', command: process.execPath, args } : { command: process.execPath, args };
}

function withServers(json: Record<string, unknown>, location: ClientConfigLocation, servers: Record<string, RawEntry>): Record<string, unknown> {
  if (location.project === undefined) return { ...json, [location.key]: servers };
  const projects = { ...((json.projects as Record<string, Record<string, unknown>>) ?? {}) };
  projects[location.project] = { ...(projects[location.project] ?? {}), [location.key]: servers };
  return { ...json, projects };
}

export async function installCommand(options: InstallOptions): Promise<void> {
  const client = clientOf(options.client);
  const location = userLocation(client, clientEnvironment());
  const target = targetOf(options);
  // The client's servers move into Switchboard's config first, so nothing is lost.
  const { plan, servers } = planImport([location], (target.json[target.key] as Record<string, RawEntry>) ?? {}, target.file);
  const backup = `${location.file}${BACKUP_SUFFIX}`;
  const current = readClientFile(location.file);
  const shim = { switchboard: shimEntry(client, target.file, options.dataDir) };
  const already = isDeepStrictEqual(serversAt(location, current), shim);
  if (!options.dryRun && !already) {
    if (plan.some((p) => p.action === 'add' || p.action === 'rename')) {
      if (existsSync(target.file)) copyFileSync(target.file, `${target.file}${BACKUP_SUFFIX}`);
      writeJson(target.file, { ...target.json, [target.key]: servers });
    }
    // The first backup is the client's own file: a second install must not overwrite it with ours.
    if (!existsSync(backup)) {
      if (existsSync(location.file)) copyFileSync(location.file, backup);
      else writeJson(backup, {}, 0o600);
    }
    writeJson(location.file, withServers(current, location, shim));
  }
  if (options.json) return printJson({ client, file: location.file, backup, dryRun: Boolean(options.dryRun), alreadyInstalled: already, plan, entry: shim.switchboard });
  printPlan(plan, target.file, Boolean(options.dryRun));
  if (already) process.stdout.write(`${client} already uses the shim (${location.file}).\n`);
  else if (options.dryRun) process.stdout.write(`Dry run: ${location.file} would list only "switchboard" (switchboard connect --config ${target.file}); the original would be kept as ${backup}.\n`);
  else process.stdout.write(`${client} now starts "switchboard connect" (${location.file}); its original is in ${backup}. Restart ${client}; "switchboard uninstall --client ${client}" undoes this.\n`);
}

export async function uninstallCommand(options: InstallOptions): Promise<void> {
  const client = clientOf(options.client);
  const location = userLocation(client, clientEnvironment());
  const backup = `${location.file}${BACKUP_SUFFIX}`;
  if (!existsSync(backup)) throw new UsageError(`nothing to undo for ${client}: no ${backup} (was "switchboard install --client ${client}" run for this user?)`);
  // Only the servers object goes back: the client may have written other settings since.
  const original = serversAt(location, readClientFile(backup));
  const current = readClientFile(location.file);
  let restored: Record<string, unknown>;
  if (original !== undefined) restored = withServers(current, location, original);
  else {
    restored = { ...current };
    delete restored[location.key];
  }
  if (!options.dryRun) {
    writeJson(location.file, restored);
    rmSync(backup);
  }
  if (options.json) return printJson({ client, file: location.file, restored: Object.keys(original ?? {}), dryRun: Boolean(options.dryRun) });
  process.stdout.write(`${options.dryRun ? 'Dry run: would restore' : 'Restored'} ${Object.keys(original ?? {}).length} server(s) in ${location.file} (${Object.keys(original ?? {}).join(', ') || 'none'}).\n`);
}
