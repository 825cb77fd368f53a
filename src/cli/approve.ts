// Owns `switchboard approve <server> [tool]`: shows the diff of each tool definition change waiting for
// approval (pinned vs. listed now) and re-pins the new definitions. A running gateway on the same data
// dir notices within a second and tells its clients (tools/list_changed).
import { createInterface } from 'node:readline/promises';
import { DefinitionPins, pinIdentity, type PendingChange } from '../catalog/pinning.js';
import { printJson } from './format.js';
import { UsageError } from './inventory.js';
import { loadContext, openStore, type CommonOptions } from './context.js';

export interface ApproveOptions extends CommonOptions {
  json?: boolean;
  /** Show the diffs only. */
  dryRun?: boolean;
  /** Do not ask (a terminal is asked before re-pinning; pipes and scripts are not). */
  yes?: boolean;
}

export async function approveCommand(server: string, tool: string | undefined, options: ApproveOptions): Promise<void> {
  const context = await loadContext(options, 'warn');
  const config = context.config.servers.find((s) => s.key === server);
  if (!config) throw new UsageError(`Unknown server "${server}". Configured: ${context.config.servers.map((s) => s.key).join(', ') || 'none'}.`);
  const store = openStore(context.dataDir, context.config.settings);
  try {
    const pins = new DefinitionPins({ repository: store.pins, mode: context.config.settings.pinning, log: context.log });
    const pending = pins.pending(server, pinIdentity(config), tool);
    if (pending.length === 0) {
      const what = tool === undefined ? `server "${server}"` : `tool "${tool}" of server "${server}"`;
      const message = `Nothing to approve for ${what}: no definition change is waiting (a change is recorded when a gateway or "switchboard tools" lists the server).`;
      if (options.json) return printJson({ server, approved: [], pending: [], message });
      process.stdout.write(`${message}\n`);
      return;
    }
    if (!options.json) for (const change of pending) process.stdout.write(describe(change));
    if (options.dryRun) {
      if (options.json) printJson({ server, pending: pending.map(strip) });
      return;
    }
    if (!options.yes && !options.json && process.stdin.isTTY && process.stdout.isTTY && !(await confirm(pending.length))) {
      process.stdout.write('Not approved; the pins are unchanged.\n');
      return;
    }
    const approved = pins.approve(pending);
    const skipped = pending.length - approved.length;
    if (options.json) return printJson({ server, approved: approved.map(strip), ...(skipped && { changedAgain: skipped }) });
    process.stdout.write(`Approved ${approved.length} change(s) of server "${server}"; a running gateway re-lists within a second and tells its clients.\n`);
    if (skipped) process.stdout.write(`${skipped} change(s) changed again while you looked and were not approved; run the command again to see them.\n`);
  } finally {
    store.close();
  }
}

function describe(change: PendingChange): string {
  const seen = new Date(change.seenAt).toISOString();
  return `${change.server}.${change.tool}: definition changed since it was pinned (seen ${seen}; hash ${change.pinnedHash.slice(0, 12)} -> ${change.hash.slice(0, 12)})\n${indent(change.diff)}\n\n`;
}

function indent(text: string): string {
  return text.split('\n').map((line) => `  ${line}`).join('\n');
}

function strip(change: PendingChange) {
  const { identity: _identity, ...rest } = change;
  return rest;
}

async function confirm(count: number): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const answer = await rl.question(`Pin the new definition${count === 1 ? '' : 's'} of ${count} tool${count === 1 ? '' : 's'}? [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
