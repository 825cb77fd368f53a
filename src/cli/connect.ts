// Owns `switchboard connect`: the stdio MCP server a client config points at. It reaches this data
// dir's daemon (starting it when none runs; ten shims starting at once share one) and relays every
// message both ways over the daemon's HTTP face until the client closes stdin (docs/daemon.md).
// Nothing but JSON-RPC goes to stdout; logs go to stderr.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { CheckedStdioTransport } from '../gateway/stdio-transport.js';
import { findDaemon, health, startDaemon } from '../daemon/control.js';
import { Relay } from '../daemon/relay.js';
import { shimLog } from '../daemon/shim-log.js';
import { dataDirOf } from './data-dir.js';
import type { CommonOptions } from './context.js';
import { configOf } from './daemon.js';
import { UsageError } from './errors.js';

export interface ConnectOptions extends CommonOptions {
  toolset?: string;
  mode?: string;
  server?: string;
}

const MAX_LINE_BYTES = 64 * 1024 * 1024;

/** A light check of a client's line (the daemon validates it fully): a JSON-RPC 2.0 object. */
function jsonRpcShape(value: unknown): JSONRPCMessage {
  const message = value as { jsonrpc?: unknown; method?: unknown; id?: unknown; result?: unknown; error?: unknown } | null;
  const ok = message !== null && typeof message === 'object' && !Array.isArray(message) && message.jsonrpc === '2.0' && (typeof message.method === 'string' || ('id' in message && ('result' in message || 'error' in message)));
  if (!ok) throw new Error('not a JSON-RPC 2.0 message');
  return value as JSONRPCMessage;
}

/** The daemon endpoint a shim's flags name. */
export function endpointPath(options: Pick<ConnectOptions, 'toolset' | 'mode' | 'server'>): string {
  const chosen = [options.toolset && '--toolset', options.mode && '--mode', options.server && '--server'].filter(Boolean);
  if (chosen.length > 1) throw new UsageError(`choose one of --toolset, --mode and --server (got ${chosen.join(' and ')})`);
  if (options.toolset) return `/toolsets/${encodeURIComponent(options.toolset)}/mcp`;
  if (options.server) return `/servers/${encodeURIComponent(options.server)}/mcp`;
  if (options.mode) return `/mcp?mode=${encodeURIComponent(options.mode)}`;
  return '/mcp';
}

export async function connectCommand(options: ConnectOptions): Promise<void> {
  const dataDir = dataDirOf(options);
  const endpoint = endpointPath(options);
  // The config matters only to start a daemon: a running one serves the file it was started with.
  const requested = path.resolve(options.config);
  const log = shimLog(options.logLevel);
  const relay = new Relay(new CheckedStdioTransport(MAX_LINE_BYTES, jsonRpcShape), {
    connect: async () => {
      const daemon = (await findDaemon(dataDir)) ?? (await startDaemon({ dataDir, config: configOf(options) }));
      if ('started' in daemon && daemon.started) log.info({ pid: daemon.state.pid, url: daemon.state.url }, 'started the Switchboard daemon');
      if (daemon.state.config !== requested && existsSync(requested)) {
        log.warn({ daemon: daemon.state.config, requested }, 'the running daemon serves another config file; stop it ("switchboard daemon stop") to switch');
      }
      return { url: new URL(`${daemon.state.url}${endpoint}`), token: daemon.token };
    },
    alive: async () => {
      const daemon = await findDaemon(dataDir);
      return daemon !== undefined && (await health(daemon.state, 1000)) !== undefined;
    },
    log,
  });
  relay.onclose = () => process.exit(0);
  await relay.start();
}
