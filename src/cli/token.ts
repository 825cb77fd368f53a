// Owns `switchboard token create <client>`: a new client token, printed once on stdout; its hash
// (never the token) is written into the config's switchboard.clients with --write, or printed as
// the entry to add by hand.
import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseJsonc } from '../config/index.js';
import { hashToken, newToken } from '../http/tokens.js';
import { UsageError } from './inventory.js';

export interface TokenCreateOptions {
  config: string;
  write?: boolean;
  admin?: boolean;
  servers?: string;
  tools?: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function list(value: string | undefined): string[] | undefined {
  return value === undefined ? undefined : value.split(',').map((s) => s.trim()).filter(Boolean);
}

export async function tokenCreateCommand(client: string, options: TokenCreateOptions): Promise<void> {
  if (!NAME.test(client)) throw new UsageError(`client name "${client}" must be 1 to 64 characters from A-Z a-z 0-9 _ . -`);
  const token = newToken();
  const entry: Record<string, unknown> = { name: client, tokenHash: hashToken(token) };
  if (options.admin) entry.admin = true;
  const servers = list(options.servers);
  const tools = list(options.tools);
  if (servers) entry.servers = servers;
  if (tools) entry.tools = tools;
  if (options.write) {
    const file = path.resolve(options.config);
    const replaced = await writeClient(file, entry);
    process.stderr.write(`${replaced ? 'Replaced' : 'Added'} client "${client}" in ${file} (switchboard.clients; only the hash is stored). Restart the gateway to use it.\n`);
  } else {
    process.stderr.write(
      `Add this entry to "switchboard": {"clients": [...]} in your config (only the hash, never the token):\n  ${JSON.stringify(entry)}\n` +
        `or run again with --write to add it for you.\n`,
    );
  }
  process.stderr.write('The token is shown once, now. Clients send it as "Authorization: Bearer <token>".\n');
  process.stdout.write(`${token}\n`);
}

/** Adds or replaces the client in the file's "switchboard".clients; true when it replaced one. Comments in the file are not kept. */
async function writeClient(file: string, entry: Record<string, unknown>): Promise<boolean> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const root = parseJsonc(text) as Record<string, unknown>;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw new UsageError(`${file}: the top level must be a JSON object`);
  const settings = (root.switchboard ?? {}) as Record<string, unknown>;
  const clients = Array.isArray(settings.clients) ? [...(settings.clients as Array<Record<string, unknown>>)] : [];
  const index = clients.findIndex((c) => c?.name === entry.name);
  if (index >= 0) clients[index] = { ...clients[index], tokenHash: entry.tokenHash, tokenEnv: undefined, ...entry };
  else clients.push(entry);
  root.switchboard = { ...settings, clients };
  const { mode } = await stat(file);
  await writeFile(file, `${JSON.stringify(root, null, 2)}\n`, { mode });
  return index >= 0;
}
