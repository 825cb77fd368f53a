// Owns `switchboard serve`: runs the gateway over stdio (default) or HTTP, applies config edits
// live, and shuts down cleanly (every child stopped) on SIGINT, SIGTERM or stdin closing.
import { watchConfig } from '../config/index.js';
import { serveStdio } from '../gateway/stdio-face.js';
import { viewForMode, type Mode, type View } from '../gateway/view.js';
import type { Gateway } from '../gateway/gateway.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { budgetWarning } from '../views/budget.js';
import { gatewayFor, loadContext, openStore, type CommonOptions } from './context.js';
import { UsageError } from './inventory.js';
import { reportStartProgress } from './progress.js';
import { JournaledMetricsRepository } from '../store/index.js';
import { DescriptionOverrides } from '../optimize/overrides.js';
import { watchPromotions } from '../optimize/promotion-watch.js';
import type { SwitchboardSettings } from '../config/index.js';
import { readableByOthersWarning } from '../config/permissions.js';
import { CredentialStore } from '../auth/credential-store.js';
import { adoptEarlyServers } from './serve-early-servers.js';
import { CalledServersKeeper } from './called-servers-keeper.js';
import { trimHeapWhenIdle } from './idle-heap-trim.js';
import { STOP_SIGNALS, handOverSignals } from './early-signals.js';

/** How long after the start the config file begins to be watched (watchConfig's startAfterMs). */
const CONFIG_WATCH_DELAY_MS = 1000;
// The HTTP face (hono), client tokens, the daemon's files, Prometheus and the optimization tools are
// loaded only by the runs that use them: a stdio gateway answers its first call sooner without them.

export interface ServeOptions extends CommonOptions {
  stdio?: boolean;
  http?: boolean;
  host?: string;
  port?: string;
  mode?: Mode;
  toolset?: string;
  /** --log-file <path> (a string) or --no-log-file (false). */
  logFile?: string | boolean;
  logRequests?: boolean;
  logArguments?: boolean;
  enableOptimization?: boolean;
  /** --pinning: overrides the pinning setting. */
  pinning?: SwitchboardSettings['pinning'];
  /** --inbound-era: overrides the inboundEra setting. */
  inboundEra?: 'auto' | 'legacy';
  /** Run as this data dir's daemon (started by `switchboard daemon start` or a shim; docs/daemon.md). */
  daemon?: boolean;
}

export async function serveCommand(options: ServeOptions): Promise<void> {
  const port = options.port === undefined ? undefined : Number(options.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65535)) {
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${options.port}")`);
  }
  if (options.http && options.stdio) throw new UsageError('choose one face: --stdio or --http');
  const { config, log, dataDir, logFile } = await loadContext(options, 'info', { logFile: options.logFile, logRequests: options.logRequests, logArguments: options.logArguments });
  // Before anything starts: an HTTP face off loopback needs client tokens (exit 2 with the fix).
  if (options.daemon && !options.http) throw new UsageError('--daemon needs --http');
  const http = options.http ? await loadHttpFace(options, config) : undefined;
  const readable = readableByOthersWarning(config);
  if (readable) log.warn(readable);
  const mode = options.mode ?? config.settings.mode;
  const inboundEra = options.inboundEra ?? config.settings.inboundEra;
  // Calls are journaled (one append before each answer) and inserted in batches: see docs/metrics.md.
  // Both faces insert on a timer of the main thread (an ingest worker thread cost ~10 MB of RSS and
  // gained nothing at 32 concurrent sessions: docs/metrics.md).
  const store = openStore(dataDir, config.settings, { callJournal: { onError: (message) => log.error(message), onWarning: (message) => log.warn(message) } });
  for (const warning of store.warnings) log.warn(warning);
  if (store.metrics instanceof JournaledMetricsRepository) {
    const journal = store.metrics;
    log.debug({ mode: journal.mode, ...(journal.writeReason && { reason: journal.writeReason }) }, 'call journal');
  }
  if (options.toolset && !store.toolsets.get(options.toolset)) {
    const known = store.toolsets.list().map((t) => t.name).join(', ') || 'none';
    store.close();
    throw new UsageError(`--toolset: no toolset named "${options.toolset}" in ${store.path}. Saved toolsets: ${known}.`);
  }
  const optimizationOn = options.enableOptimization || config.settings.optimization.enabled;
  const { optimizationHost } = optimizationOn ? await import('./optimize-host.js') : { optimizationHost: undefined };
  const gateway = gatewayFor(options.pinning ? { ...config, settings: { ...config.settings, pinning: options.pinning } } : config, {}, {
    store,
    // Prometheus metrics are read on the HTTP face's /metrics only.
    ...(http && { metrics: http.createMetricsRegistry() }),
    credentials: new CredentialStore(dataDir),
    ...(optimizationHost && { optimization: (built: Gateway) => optimizationHost(built, config.settings) }),
  });
  const settings = config.settings;
  await gateway.applyServers(config.servers);
  // Servers started early (serve-prestart.ts) that this configuration does not start that way stop now.
  const early = adoptEarlyServers(gateway, config.servers, log);
  gateway.calls.warm(); // per-tool call counts read once now, not on the first failed call
  // recent-servers.json, what the next start begins with (serve-prestart.ts): written once calls have
  // settled (so also when this run ends abruptly) and at shutdown when changed, never on a call's path.
  const calledServers = new CalledServersKeeper(gateway, { dataDir, log });
  calledServers.start();
  // `switchboard approve` in another process re-pins in the store: re-check listings, clients hear list_changed.
  gateway.pins?.watch(1000, () => gateway.descriptionsChanged());
  // Promotions and reverts made from a terminal (`switchboard optimize ...`) reach clients live too.
  const stopPromotionWatch = gateway.descriptions instanceof DescriptionOverrides
    ? watchPromotions({
        repository: store.optimize,
        overrides: gateway.descriptions,
        onChanged: (servers) => {
          log.info({ servers }, 'promotions changed in the store; descriptions re-applied');
          gateway.descriptionsChanged(servers);
        },
        onError: (error) => log.warn({ err: error.message }, 'could not read the promotions from the store'),
      })
    : () => undefined;
  reportStartProgress(gateway.pool, log);
  // Memory a burst of calls grew is given back once the gateway has been quiet for a few seconds.
  const stopHeapTrim = trimHeapWhenIdle(log);
  void gateway
    .warmUp(config.settings.preconnect)
    .then(async () => {
      // After the first listing: warn when passing every tool through would blow the budget.
      const catalog = gateway.catalogFor(BARE_PROFILE);
      await catalog.ensure();
      const warning = budgetWarning(catalog.tools(), { tokenBudget: settings.tokenBudget, maxTools: settings.maxTools, mode });
      if (warning) log.warn(warning.fields, warning.message);
      // Servers this check had to start (no cached listing) stop again unless a client uses them.
      await gateway.releaseUnused();
      // With an embeddings endpoint: embed now (changed tools only), so the first search need not wait.
      if (settings.search.embeddings) {
        const started = Date.now();
        await gateway.search
          .embed(catalog)
          .then((report) => log.info({ ...report, ms: Date.now() - started }, 'tools embedded'))
          .catch((error: Error) => log.warn({ err: error.message }, 'embedding the tools failed; search answers lexically until the endpoint works'));
      }
    })
    .catch((error: Error) => log.debug({ err: error.message }, 'tool budget not checked'));
  const enabled = config.servers.filter((s) => !s.disabled).map((s) => s.key);
  log.info({ config: config.file, servers: enabled, dataDir, store: store.path, ...(logFile && { logFile }) }, 'configuration loaded');

  const watcher = watchConfig(config.file, {
    initial: config,
    // Not on a starting gateway's first answers (chokidar's load and the folder's first read).
    startAfterMs: CONFIG_WATCH_DELAY_MS,
    onChange: (next) => {
      log.info({ config: next.file }, 'configuration changed; applying');
      for (const warning of next.warnings) log.warn(warning.message);
      const unapplied = changedSettings(config.settings, next.settings);
      const overrides = gateway.descriptions instanceof DescriptionOverrides ? gateway.descriptions : undefined;
      const described = overrides?.setDescriptions(next.settings.descriptions) ?? [];
      if (described.length) gateway.descriptionsChanged(described);
      unapplied.splice(0, unapplied.length, ...unapplied.filter((key) => key !== 'descriptions'));
      if (unapplied.length) log.warn({ settings: unapplied }, 'settings changes take effect after a restart; server changes are applied now');
      void gateway.applyServers(next.servers);
    },
    onError: (error) => log.error({ err: error.message }, 'configuration change rejected; keeping the previous one'),
  });

  let closeFace: () => Promise<void> = async () => undefined;
  let stopping = false;
  // Every path ends in process.exit, whose hook SIGKILLs whatever of a server's tree still runs
  // (src/servers/process-tree.ts); the orderly stop before it gives servers their grace periods.
  const shutdown = async (reason: string, code = 0) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason }, 'shutting down');
    if (options.daemon) http?.daemonStopping(dataDir);
    const force = setTimeout(() => process.exit(code || 1), code ? 3_000 : 10_000);
    force.unref();
    await watcher.close().catch(() => undefined);
    stopPromotionWatch();
    stopHeapTrim();
    await closeFace().catch(() => undefined);
    calledServers.flush(); // before the pool closes: it knows the servers' identities
    await gateway.close().catch((error: Error) => log.error({ err: error.message }, 'stopping the servers failed'));
    store.close();
    process.exit(code);
  };
  // Until here a signal was early-signals.ts's to handle; one that came meanwhile is acted on below.
  const signalledWhileLoading = handOverSignals();
  // A second signal while the servers stop (a double Ctrl-C) exits at once: the exit hook SIGKILLs
  // what still runs. With no handler left, its default action would end the process without the hook.
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stopping) return void shutdown(signal);
    log.warn({ signal }, 'second signal while stopping: exiting now; servers still stopping are killed');
    // pino writes what it holds at exit; the flush, and at most a moment's wait, are for a log
    // transport on a worker thread (the pretty printer on a terminal).
    setTimeout(() => process.exit(0), 500);
    log.flush(() => process.exit(0));
  };
  // SIGHUP too (the terminal serve runs in was closed): its default action would skip the orderly stop and the hook.
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  const crash = (error: unknown) => {
    log.fatal({ err: error instanceof Error ? error.stack ?? error.message : String(error) }, 'uncaught error; stopping every server and exiting');
    if (stopping) process.exit(1);
    void shutdown('uncaught error', 1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
  if (signalledWhileLoading) return shutdown(signalledWhileLoading); // with the crash handlers in place

  if (http) {
    const host = options.host ?? config.settings.http.host;
    let face;
    try {
      face = await http.startHttpFace(gateway, {
        host,
        port: port ?? config.settings.http.port,
        allowedHosts: config.settings.http.allowedHosts,
        allowedOrigins: config.settings.http.allowedOrigins,
        sessionIdleMs: config.settings.sessionIdleMs,
        mode,
        clients: http.clients,
        unauthenticatedAdmin: config.settings.http.unauthenticatedAdmin,
        limits: config.settings.limits,
        configFile: config.file,
        ...(options.toolset && { toolset: options.toolset }),
        inboundEra,
      });
    } catch (error) {
      await watcher.close().catch(() => undefined);
      await gateway.close();
      store.close();
      const code = (error as NodeJS.ErrnoException).code;
      const where = `${host}:${port ?? config.settings.http.port}`;
      if (code === 'EADDRINUSE') throw new Error(`cannot listen on ${where}: the port is in use (pick another with --port, or 0 for any free port)`);
      if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new Error(`cannot listen on ${where}: no such local address (check --host)`);
      throw new Error(`cannot listen on ${where}: ${(error as Error).message}`);
    }
    closeFace = face.close;
    log.info({ url: `${face.url}/mcp` }, 'listening');
    if (options.daemon) http.daemonListening(dataDir, face.url, config.file);
    else process.stderr.write(banner(face.url, enabled));
  } else {
    const view: View = options.toolset ? { kind: 'fixed-toolset', name: options.toolset } : viewForMode(mode);
    await serveStdio(gateway, () => void shutdown('stdin closed'), view, inboundEra, early.adopt);
  }
}

/** What only the HTTP face needs, loaded for it; the bind address is checked before anything starts. */
async function loadHttpFace(options: ServeOptions, config: Awaited<ReturnType<typeof loadContext>>['config']) {
  const [{ startHttpFace }, { ClientRegistry }, { checkBind }, daemon, { createMetricsRegistry }] = await Promise.all([
    import('../http/server.js'),
    import('../http/clients.js'),
    import('./bind-check.js'),
    import('./daemon-serve.js'),
    import('../metrics/prometheus.js'),
  ]);
  const clients = new ClientRegistry(options.daemon ? daemon.daemonClients(config.settings.clients) : config.settings.clients, process.env, config.file);
  checkBind(options.host ?? config.settings.http.host, clients.enabled, config.settings.http.unauthenticatedAdmin);
  return { startHttpFace, clients, createMetricsRegistry, daemonListening: daemon.daemonListening, daemonStopping: daemon.daemonStopping };
}

function banner(url: string, servers: string[]): string {
  return [
    '',
    `Switchboard is serving ${servers.length} server(s) (${servers.join(', ') || 'none'}) at ${url}/mcp`,
    '',
    '  Claude Code:   claude mcp add --transport http sb ' + `${url}/mcp`,
    '  Cursor:        in ~/.cursor/mcp.json: {"mcpServers": {"sb": {"url": "' + `${url}/mcp` + '"}}}',
    '  Inspector:     npx @modelcontextprotocol/inspector, transport "Streamable HTTP", URL ' + `${url}/mcp`,
    `  One server:    ${url}/servers/<key>/mcp (original tool names)`,
    `  Dashboard:     ${url}/ui/ (in a browser)`,
    `  Health:        ${url}/healthz`,
    '',
    'Press Ctrl+C to stop.',
    '',
  ].join('\n');
}

/** Top-level settings whose value differs (the running gateway keeps the ones it started with). */
function changedSettings(before: SwitchboardSettings, after: SwitchboardSettings): string[] {
  return (Object.keys(after) as Array<keyof SwitchboardSettings>).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}
