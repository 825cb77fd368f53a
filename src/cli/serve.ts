// Owns `switchboard serve`: runs the gateway over stdio (default) or HTTP, applies config edits
// live, and shuts down cleanly (every child stopped) on SIGINT, SIGTERM or stdin closing.
import { watchConfig } from '../config/index.js';
import { serveStdio } from '../gateway/stdio-face.js';
import { startHttpFace } from '../http/server.js';
import { gatewayFor, loadContext, type CommonOptions } from './context.js';

export interface ServeOptions extends CommonOptions {
  stdio?: boolean;
  http?: boolean;
  host?: string;
  port?: string;
}

export async function serveCommand(options: ServeOptions): Promise<void> {
  const { config, log } = await loadContext(options, 'info');
  const gateway = gatewayFor(config);
  await gateway.applyServers(config.servers);
  const enabled = config.servers.filter((s) => !s.disabled).map((s) => s.key);
  log.info({ config: config.file, servers: enabled }, 'configuration loaded');

  const watcher = watchConfig(config.file, {
    initial: config,
    onChange: (next) => {
      log.info({ config: next.file }, 'configuration changed; applying');
      void gateway.applyServers(next.servers);
    },
    onError: (error) => log.error({ err: error.message }, 'configuration change rejected; keeping the previous one'),
  });

  let closeFace: () => Promise<void> = async () => undefined;
  let stopping = false;
  const shutdown = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await watcher.close().catch(() => undefined);
    await closeFace().catch(() => undefined);
    await gateway.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (options.http) {
    const host = options.host ?? config.settings.http.host;
    const port = options.port !== undefined ? Number(options.port) : config.settings.http.port;
    const face = await startHttpFace(gateway, {
      host,
      port,
      allowedHosts: config.settings.http.allowedHosts,
      allowedOrigins: config.settings.http.allowedOrigins,
      sessionIdleMs: config.settings.sessionIdleMs,
    });
    closeFace = face.close;
    log.info({ url: `${face.url}/mcp` }, 'listening');
    process.stderr.write(banner(face.url, enabled));
  } else {
    await serveStdio(gateway, () => void shutdown('stdin closed'));
  }
}

function banner(url: string, servers: string[]): string {
  return [
    '',
    `Switchboard is serving ${servers.length} server(s) (${servers.join(', ') || 'none'}) at ${url}/mcp`,
    '',
    '  Claude Code:   claude mcp add --transport http switchboard ' + `${url}/mcp`,
    '  Cursor:        in ~/.cursor/mcp.json: {"mcpServers": {"switchboard": {"url": "' + `${url}/mcp` + '"}}}',
    '  Inspector:     npx @modelcontextprotocol/inspector, transport "Streamable HTTP", URL ' + `${url}/mcp`,
    `  One server:    ${url}/servers/<key>/mcp (original tool names)`,
    `  Health:        ${url}/healthz`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}
