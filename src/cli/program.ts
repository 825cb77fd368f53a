// Owns the `switchboard` command line's definition: every command with its options, and which of
// them a run registers (only the one it names; all of them for help, --version or a typo).
import { Command, Option } from 'commander';
import { LOG_LEVELS } from '../logging/levels.js';
import { VERSION } from '../config/version.js';
import { registerOptimize } from './optimize-commands.js';

function common(command: Command): Command {
  return command
    .option('-c, --config <path>', 'the .mcp.json to read', './.mcp.json')
    .option('--data-dir <dir>', 'where Switchboard writes its data (default: the per-user data folder)')
    .addOption(new Option('--log-level <level>', 'log level (logs go to stderr; serve also writes them to a file per run, see docs/logging.md)').choices([...LOG_LEVELS]));
}

/**
 * Each command's registration, by its name on the command line, in the order help lists them. A run
 * registers only the command it names (commander building all of them: ~5 ms of every start
 * profiled, ~1.6 ms of wall time); a run that names none (help, --version, a typo) registers them all.
 */
const COMMANDS = {
  serve: (program) => {
    common(program.command('serve'))
      .description('run the gateway (stdio by default, or Streamable HTTP with --http)')
      .option('--stdio', 'serve over stdin/stdout (default)')
      .option('--http', 'serve Streamable HTTP')
      .option('--host <host>', 'HTTP bind address (default 127.0.0.1)')
      .option('--port <port>', 'HTTP port (default 3333; 0 picks a free one)')
      .addOption(new Option('--mode <mode>', 'what /mcp and stdio serve: every tool, the equipped toolset, the meta-tools, or auto (passthrough up to maxTools, else meta) (default: the "mode" setting, else passthrough)').choices(['passthrough', 'toolset', 'meta', 'auto']))
      .option('--toolset <name>', 'serve exactly this saved toolset (stdio, and /mcp over HTTP), whatever is equipped')
      .option('--log-file <path>', 'write the log to this file (default: a new file per run in <data-dir>/logs; see docs/logging.md)')
      .option('--no-log-file', 'log to stderr only')
      .option('--log-requests', 'one log line per request and response: ids, server, tool, duration, status, sizes (setting logRequests)')
      .option('--log-arguments', 'with --log-requests: argument values too, secrets redacted (setting logArguments)')
      .option('--enable-optimization', 'serve the description-optimization tools on /gateway/mcp (default off; promotions apply either way)')
      .addOption(new Option('--daemon', 'run as the data dir\'s daemon (set by `switchboard daemon start`)').hideHelp())
      .addOption(new Option('--pinning <mode>', 'tools whose definition changed since first seen: flagged (warn), hidden until `switchboard approve` (strict), or not checked (off) (default: the "pinning" setting, else warn)').choices(['warn', 'strict', 'off']))
      .addOption(new Option('--inbound-era <era>', 'protocol eras served to clients: 2026-07-28 requests next to 2025 sessions (auto), or 2025 sessions only (legacy) (default: the "inboundEra" setting, else auto)').choices(['auto', 'legacy']))
      .action((opts) => import('./serve.js').then((m) => m.serveCommand(opts)));
  },
  daemon: (program) => {
    const daemon = program.command('daemon').description('run the HTTP gateway in the background for every local client (docs/daemon.md)');
    common(daemon.command('start'))
      .description('start the daemon of this data dir (one per data dir); clients reach it with `switchboard connect`')
      .option('--port <port>', 'HTTP port on 127.0.0.1 (default 0: any free port; the state file says which)')
      .option('--json', 'print JSON')
      .action((opts) => import('./daemon.js').then((m) => m.daemonStart(opts)));
    common(daemon.command('stop'))
      .description('stop the daemon: SIGTERM, then SIGKILL of its process group after 10 s')
      .option('--json', 'print JSON')
      .action((opts) => import('./daemon.js').then((m) => m.daemonStop(opts)));
    common(daemon.command('status'))
      .description('pid, URL, uptime, clients connected, servers and their states (exit 3 when not running)')
      .option('--json', 'print JSON')
      .action((opts) => import('./daemon.js').then((m) => m.daemonStatus(opts)));
    common(daemon.command('logs'))
      .description('print the daemon\'s newest log file (the same as `switchboard logs`)')
      .option('-f, --follow', 'keep printing lines as they are written')
      .addOption(new Option('--level <level>', 'only lines at this level or above').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal']))
      .option('--server <key>', 'only lines about this server')
      .option('--json', 'print the JSON lines as they are')
      .action((opts) => import('./logs.js').then((m) => m.logsCommand(opts)));
  },
  tui: (program) => {
    common(program.command('tui'))
      .description('terminal UI over a running gateway: servers, live activity, search, optimization (docs/tui.md)')
      .option('--url <url>', 'the gateway\'s URL (default: this data dir\'s daemon, else http://127.0.0.1:3333)')
      .option('--token <token>', 'an admin client token (default: the daemon\'s, or SWITCHBOARD_TOKEN)')
      .action((opts) => import('./tui.js').then((m) => m.tuiCommand(opts)));
  },
  connect: (program) => {
    common(program.command('connect'))
      .description('stdio MCP server for a client config: relays to this data dir\'s daemon, starting it when needed (docs/daemon.md)')
      .option('--toolset <name>', 'see exactly this saved toolset')
      .addOption(new Option('--mode <mode>', 'see this mode (default: the daemon\'s)').choices(['passthrough', 'toolset', 'meta', 'auto']))
      .option('--server <key>', 'see one server, original tool names')
      .action((opts) => import('./connect.js').then((m) => m.connectCommand(opts)));
  },
  import: (program) => {
    common(program.command('import'))
      .description('copy the servers of the MCP clients\' configs on this machine into Switchboard\'s config (--config), showing what it does')
      .option('--from <source...>', 'claude-code, claude-desktop, cursor, vscode or a file (default: every client)')
      .option('--dry-run', 'show what would be added, change nothing')
      .option('--json', 'print JSON')
      .action((opts) => import('./import.js').then((m) => m.importCommand(opts)));
  },
  install: (program) => {
    common(program.command('install'))
      .description('make a client start `switchboard connect` instead of its servers (its servers are imported first; the original file is kept)')
      .requiredOption('--client <client>', 'claude-code, claude-desktop, cursor or vscode')
      .option('--dry-run', 'show what would change, change nothing')
      .option('--json', 'print JSON')
      .action((opts) => import('./import.js').then((m) => m.installCommand(opts)));
  },
  uninstall: (program) => {
    common(program.command('uninstall'))
      .description('give a client its own server list back (undoes `switchboard install`)')
      .requiredOption('--client <client>', 'claude-code, claude-desktop, cursor or vscode')
      .option('--dry-run', 'show what would change, change nothing')
      .option('--json', 'print JSON')
      .action((opts) => import('./import.js').then((m) => m.uninstallCommand(opts)));
  },
  doctor: (program) => {
    common(program.command('doctor'))
      .description('check Node, the config (each server\'s command, variables), the data dir, the daemon, the port and the clients\' set-up; says what to fix (exit 1 on a failed check)')
      .option('--port <port>', 'the HTTP port to check (default: the "http.port" setting, else 3333)')
      .option('--json', 'print JSON')
      .action((opts) => import('./doctor.js').then((m) => m.doctorCommand(opts)));
  },
  login: (program) => {
    common(program.command('login'))
      .argument('<server>', 'the key of a remote (http, sse) server in the config')
      .description('log in to a remote server that needs OAuth: prints the URL (and opens a browser), waits for the loopback redirect, stores the tokens 0600 in the data dir (docs/oauth.md)')
      .option('--timeout <seconds>', 'how long to wait for the browser (default 300)')
      .option('--no-browser', 'only print the URL (also: BROWSER=none)')
      .option('--json', 'print JSON')
      .action((server, opts) => import('./login.js').then((m) => m.loginCommand(server, opts)));
  },
  logout: (program) => {
    common(program.command('logout'))
      .argument('<server>', 'the key of a remote server in the config')
      .description('remove the tokens `switchboard login` stored for a server')
      .option('--json', 'print JSON')
      .action((server, opts) => import('./login.js').then((m) => m.logoutCommand(server, opts)));
  },
  logs: (program) => {
    common(program.command('logs'))
      .description('print the newest log file of <data-dir>/logs, pretty (starts no server)')
      .option('-f, --follow', 'keep printing lines as they are written')
      .addOption(new Option('--level <level>', 'only lines at this level or above').choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal']))
      .option('--server <key>', 'only lines about this server')
      .option('--file <path>', 'read this log file instead of the newest')
      .option('--json', 'print the JSON lines as they are')
      .action((opts) => import('./logs.js').then((m) => m.logsCommand(opts)));
  },
  servers: (program) => {
    common(program.command('servers'))
      .description('list configured servers: transport, state, tool count, last error')
      .option('--json', 'print JSON')
      .action((opts) => import('./servers.js').then((m) => m.serversCommand(opts)));
  },
  tools: (program) => {
    common(program.command('tools'))
      .description('list every tool under the name clients see')
      .option('--server <key>', 'only this server')
      .option('--tokens', 'instead: the tokens of the tools/list result per mode (passthrough, meta), counted with gpt-tokenizer (o200k_base)')
      .option('--json', 'print JSON')
      .action((opts) => import('./tools.js').then((m) => m.toolsCommand(opts)));
  },
  call: (program) => {
    common(program.command('call'))
      .description('call a tool by its exposed name; arguments as a JSON object')
      .argument('<name>', 'exposed tool name, e.g. everything_echo')
      .argument('[json]', 'arguments as JSON, e.g. \'{"message":"hi"}\'')
      .option('--json', 'print JSON (the default for results)')
      .action((name, json, opts) => import('./call.js').then((m) => m.callCommand(name, json, opts)));
  },
  metrics: (program) => {
    common(program.command('metrics'))
      .description('per-tool call statistics from the store: calls, successes, failures, success rate, p50/p95/p99, last error, last call (starts no server)')
      .option('--server <key>', 'only this server')
      .option('--tool <name>', 'only this tool (the server\'s own tool name, not the exposed <server>_<tool>)')
      .option('--since <when>', 'only calls since a duration ago (30m, 24h, 7d) or an ISO date (2025-06-01, 2025-06-01T12:00:00Z)')
      .option('--json', 'print JSON')
      .addHelpText('after', '\nReads <data-dir>/switchboard.db, where "switchboard serve" records every tools/call. See docs/metrics.md.')
      .action((opts) => import('./metrics.js').then((m) => m.metricsCommand(opts)));
  },
  changes: (program) => {
    common(program.command('changes'))
      .description('the catalog audit log, newest first: when each server added, updated or removed a tool, prompt or resource (starts no server)')
      .option('--since <when>', 'only changes since a duration ago (30m, 24h, 7d) or an ISO date (2025-06-01)')
      .option('--server <key>', 'only this server')
      .option('--limit <n>', 'at most this many rows (default 1000)')
      .option('--json', 'print JSON')
      .action((opts) => import('./changes.js').then((m) => m.changesCommand(opts)));
  },
  refresh: (program) => {
    common(program.command('refresh'))
      .description('list servers live, save their listings and count what was added, updated, removed or unchanged')
      .option('--server <key>', 'only this server')
      .option('--force', 'also re-list servers whose stored listing is under a minute old (without it they are reported as fresh and not started)')
      .option('--json', 'print JSON')
      .addHelpText(
        'after',
        [
          '',
          'Each listing is compared, entry by entry, with the stored one by content hash',
          '(tools: name, description, inputSchema, outputSchema, annotations; prompts and',
          'resources: the whole entry); every difference goes to the audit log that',
          '"switchboard changes" shows. Exit code 1 when a server could not be listed.',
          '--force records nothing for unchanged entries: an unchanged listing is re-saved',
          'with a new time only, as on every refresh.',
        ].join('\n'),
      )
      .action((opts) => import('./refresh.js').then((m) => m.refreshCommand(opts)));
  },
  search: (program) => {
    common(program.command('search'))
      .description('search the tools of every configured server by what they do (typos, synonyms and prefixes allowed)')
      .argument('<query...>', 'what you are looking for, e.g. "create an issue"')
      .option('--limit <n>', 'at most this many results (default 10)')
      .option('--server <key>', 'only this server')
      .option('--category <name>', 'only tools of this category (see docs/meta-mode.md)')
      .option('--mode <mode>', 'lexical, semantic or hybrid (default: the configured search.mode)')
      .option('--detail <level>', 'minimal, summary (default) or full (with the input schema)')
      .option('--json', 'print JSON')
      .action((query: string[], opts) => import('./search.js').then((m) => m.searchCommand(query.join(' '), opts)));
  },
  embed: (program) => {
    common(program.command('embed'))
      .description('embed every tool with the configured embedding provider now (vectors are kept in the store; unchanged tools are not re-sent)')
      .option('--force', 're-embed every tool, even unchanged ones')
      .option('--json', 'print JSON')
      .action((opts) => import('./search.js').then((m) => m.embedCommand(opts)));
  },
  bench: (program) => {
    program
      .command('bench')
      .description('benchmarks (starts no server)')
      .command('retrieval')
      .description('score tool search on an eval set: Recall@1/3/5/10, Complete@5/10, MRR@10, nDCG@10, latency p50/p99')
      .option('--tools <file>', 'tools.jsonl ({server, name, description, inputSchema} per line; servers.jsonl beside it is read too)')
      .option('--queries <file>', 'queries.jsonl ({id, query, groups} per line)')
      .option('--report-baseline', 'also run plain BM25 on the same queries in the same run and print the difference')
      .option('--cross <folders>', 'comma-separated folders: every eval set in them (and their subfolders) zero-shot, side by side with plain BM25')
      .option('--tune-on <set>', 'with --cross: search the engine\'s knobs on this set only (from plain BM25 settings), then run the choice on every set beside BM25')
      .option('--lists <off|on>', 'with --tune-on: the curated synonym lists off (default) or on')
      .option('--tune-sample <n>', 'with --tune-on: queries of the tuning set used while searching (seeded sample; default 2000)')
      .option('--tune-seed <n>', 'with --tune-on: seed of that sample (default 1)')
      .option('--tune-passes <n>', 'with --tune-on: rounds over every knob, at most 5 (default 2)')
      .option('--tune-metric <r1|mrr|r5>', 'with --tune-on: what the search maximises (default r1, ties broken by MRR@10)')
      .option('--index-options <json>', 'index options over the defaults, e.g. \'{"maxPerServer":2}\' (one signal at a time)')
      .option('--train-split <fraction>', 'learn from this share of the queries (split by a hash of the id) and score only the rest')
      .option('--limit-queries <n>', 'score only a deterministic sample of this many queries')
      .option('--engine <engine>', 'index (default), bm25 (the plain reference baseline), bm25-stem (the same with the engine\'s stemmer), minisearch or minisearch-default (ADR 0003 A/B)')
      .option('--mode <mode>', 'lexical (default), semantic or hybrid (these two need --embeddings-url and --embeddings-model)')
      .option('--embeddings-url <url>', 'OpenAI-compatible base URL, e.g. http://127.0.0.1:11434/v1')
      .option('--embeddings-model <name>', 'embedding model name')
      .option('--embeddings-key-env <NAME>', 'environment variable holding the API key, if the endpoint needs one')
      .option('--llm-url <url>', 'llm mode: re-rank the top candidates with this OpenAI-compatible chat endpoint (base URL up to /v1)')
      .option('--llm-model <name>', 'llm mode: chat model name')
      .option('--llm-key-env <NAME>', 'llm mode: environment variable holding the API key, if the endpoint needs one')
      .option('--llm-candidates <n>', 'llm mode: first-stage candidates shown to the model (default 25)')
      .option('--llm-timeout-ms <ms>', 'llm mode: per query, then the first stage counts (default 8000)')
      .option('--word-vectors <file>', 'experiment: fuse a word-vector signal (wink-embeddings JSON) with bm25 and the engine; with --cross adds vectors, bm25+vectors and index+vectors rows')
      .option('--vector-options <json>', 'word-vector parameters, e.g. \'{"weighting":"sif","nameWeight":2,"fusion":{"method":"rrf","k":60}}\'')
      .option('--scale <tools>', 'speed run instead: replicate the tools to this many, time indexing, queries and single-tool updates')
      .option('--json <out>', 'also write the results as JSON to this file')
      .action((opts) => import('./bench-retrieval.js').then((m) => m.benchRetrievalCommand(opts)));
  },
  optimize: (program) => {
    registerOptimize(program, common);
  },
  toolset: (program) => {
    const toolset = program.command('toolset').description('saved toolsets: curated tool lists (see docs/toolsets.md)');
    common(toolset.command('list')).description('list saved toolsets').option('--json', 'print JSON').action((opts) => import('./toolset.js').then((m) => m.toolsetList(opts)));
    common(toolset.command('show')).argument('<name>').description('the tools of a toolset').option('--json', 'print JSON').action((name, opts) => import('./toolset.js').then((m) => m.toolsetShow(name, opts)));
    common(toolset.command('create'))
      .argument('<name>')
      .argument('<tools...>', 'tools as server.tool (checked against the live servers)')
      .option('--description <text>')
      .option('--json', 'print JSON')
      .description('save a toolset (replaces one of the same name)')
      .action((name, tools, opts) => import('./toolset.js').then((m) => m.toolsetCreate(name, tools, opts)));
    common(toolset.command('delete')).argument('<name>').description('delete a toolset').action((name, opts) => import('./toolset.js').then((m) => m.toolsetDelete(name, opts)));
    common(toolset.command('equip')).argument('<name>').description('equip a toolset (used by toolset mode)').action((name, opts) => import('./toolset.js').then((m) => m.toolsetEquip(name, opts)));
    common(toolset.command('unequip')).description('unequip the equipped toolset').action((opts) => import('./toolset.js').then((m) => m.toolsetUnequip(opts)));
    common(toolset.command('export')).argument('[name]', 'one toolset (default: all)').option('--out <file>', 'write to a file').description('export toolsets as JSON').action((name, opts) => import('./toolset.js').then((m) => m.toolsetExport(name, opts)));
    common(toolset.command('import')).argument('<file>').description('import toolsets from an export').action((file, opts) => import('./toolset.js').then((m) => m.toolsetImport(file, opts)));
  },
  token: (program) => {
    const token = program.command('token').description('client tokens for the HTTP face (see docs/security.md)');
    token
      .command('create')
      .argument('<client>', 'client name (switchboard.clients[].name)')
      .option('-c, --config <path>', 'the .mcp.json to write the hash into (with --write)', './.mcp.json')
      .option('--write', 'store the hash in the config file (switchboard.clients); without it, print the entry to add')
      .option('--admin', 'the client may use the admin API (/api, /metrics)')
      .option('--servers <keys>', 'comma-separated server keys (globs) the client may reach (default: all)')
      .option('--tools <globs>', 'comma-separated tool globs (server.tool or exposed name) the client may call (default: all)')
      .description('make a new client token: printed once on stdout; only its hash is stored')
      .action((client, opts) => import('./token.js').then((m) => m.tokenCreateCommand(client, opts)));
  },
  approve: (program) => {
    common(program.command('approve'))
      .argument('<server>', 'server key')
      .argument('[tool]', "the tool's original name (default: every changed tool of the server)")
      .description('show the diff of tool definitions that changed since they were pinned, and pin the new ones (see docs/security.md)')
      .option('--dry-run', 'show the diffs only')
      .option('-y, --yes', 'do not ask (a terminal is asked; pipes are not)')
      .option('--json', 'print JSON')
      .action((server, tool, opts) => import('./approve.js').then((m) => m.approveCommand(server, tool, opts)));
  },
} satisfies Record<string, (program: Command) => void>;

export type CommandName = keyof typeof COMMANDS;

/** Whether a command line's first word names one of the commands. */
export function isCommandName(word: string | undefined): word is CommandName {
  return word !== undefined && Object.hasOwn(COMMANDS, word);
}

/** The program with every command, or with `only` alone when it names one (see COMMANDS). */
export function buildProgram(only?: CommandName): Command {
  const program = new Command('switchboard')
    .description('One MCP server in front of all your MCP servers.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();

  for (const [name, register] of Object.entries(COMMANDS)) if (only === undefined || name === only) register(program);
  return program;
}
