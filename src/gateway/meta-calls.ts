// Owns answering the meta-tools of a session in meta or auto mode: the tools/list of meta mode
// (described from the live catalog), tool_discovery, tool_capabilities, and tool_execute (checked
// against the tool's schema, then forwarded like any tools/call).
import type { JSONRPCRequest, ServerContext } from '@modelcontextprotocol/server';
import type { Catalog, Entry } from '../catalog/catalog.js';
import type { NamedEntry } from '../catalog/naming.js';
import type { CapabilityProfile } from '../servers/profile.js';
import { snapshotOf, type MetaSnapshot, type MetaTool } from '../views/meta-index.js';
import type { ClientScope } from '../views/scope.js';
import {
  META_TOOL_NAMES,
  TOOL_CAPABILITIES,
  TOOL_DISCOVERY,
  TOOL_EXECUTE,
  actionableError,
  metaToolDefinitions,
  parseExecute,
  runCapabilities,
  runDiscovery,
  suggestionsFor,
  summaryOf,
  type MetaEnvironment,
} from '../views/meta-tools.js';
import { describeIssues, validateArguments } from '../views/validate.js';
import type { LocalToolContext } from './ports.js';
import { adoptCorrelation, correlationOf, discoveryOf, rememberDiscovery } from '../logging/correlation.js';
import { requestLog } from '../logging/request-log.js';
import { withheldResult } from '../catalog/pinning.js';

type Params = Record<string, unknown>;
type Result = Record<string, unknown>;

/** What the meta calls need from their session. */
export interface MetaHost {
  /** What the meta-tools act on. */
  readonly local: LocalToolContext;
  readonly profile: CapabilityProfile;
  /** The session's id (links its searches to its later calls). */
  readonly id: string;
  /** The authenticated client's scope: meta-tools find, count and name only what it allows. */
  readonly scope: ClientScope | undefined;
  catalog(): Promise<Catalog>;
  forwardTool(catalog: Catalog, entry: NamedEntry, exposed: string, request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result>;
}

function snapshot(local: LocalToolContext, catalog: Catalog): MetaSnapshot {
  return snapshotOf(catalog, local.search.context);
}

/** The meta-tools (described from the live catalog, as far as the client's scope reaches), then the keepTools that exist. */
export function metaToolList(local: LocalToolContext, catalog: Catalog, scope?: ClientScope): Entry[] {
  const current = snapshot(local, catalog);
  const keep = new Set(local.meta.keepTools);
  const kept = catalog.tools().filter((t) => keep.has(t.name as string));
  const tools = scope ? current.tools.filter((t) => scope.allowsTool(t.server, t.originalName, t.key)) : current.tools;
  return [...metaToolDefinitions(summaryOf(tools, scopedServers(local, scope))), ...kept];
}

function scopedServers(local: LocalToolContext, scope: ClientScope | undefined): string[] {
  const keys = local.servers.keys();
  return scope ? keys.filter((key) => scope.allowsServer(key)) : keys;
}

function environment(host: MetaHost, catalog: Catalog, ctx?: ServerContext): MetaEnvironment {
  const search = host.local.search;
  return {
    snapshot: snapshot(host.local, catalog),
    serverKeys: scopedServers(host.local, host.scope),
    ...(host.scope && { visible: (tool: MetaTool) => host.scope!.allowsTool(tool.server, tool.originalName, tool.key) }),
    status: (server) => serverStatus(host, catalog, server),
    mode: search.defaultMode,
    prior: (tool) => search.prior(tool.server, tool.originalName),
    onResults: (query, shown) => {
      search.noteSearch(host.id, query, shown.map((t) => ({ server: t.server, tool: t.originalName })));
      // A tool_execute of a toolKey shown here continues this discovery: same correlation id.
      if (ctx) rememberDiscovery(host, shown.map((t) => t.key), correlationOf(ctx));
    },
  };
}

function serverStatus(host: MetaHost, catalog: Catalog, server: string): { status: string; error?: string } {
  const listing = catalog.listing(server);
  const state = host.local.servers.connection(server, host.profile)?.state ?? 'configured';
  const status = listing.cached && state !== 'connected' && state !== 'degraded' ? `${state} (listed from cache; starts on first use)` : state;
  return { status, ...(listing.error && { error: listing.error }) };
}

/**
 * A search or browse filtered to one server waits for that server's listing when the session's
 * bounded first listing left it out (it is still starting): it answers with the server's tools, as a
 * tools/call of one of them would wait for it, instead of none. Unfiltered, nothing waits; the
 * status of a server still starting shows. The arguments are checked afterwards, as before.
 */
async function namedServerListed(host: MetaHost, catalog: Catalog, args: unknown): Promise<void> {
  const server = (args as { server?: unknown } | undefined)?.server;
  if (typeof server !== 'string' || catalog.listedAll([server])) return;
  // Only a configured server the client may see (the others are refused afterwards, at once).
  if (host.local.servers.has(server) && (!host.scope || host.scope.allowsServer(server))) await catalog.ensure([server]);
}

export async function callMetaTool(host: MetaHost, name: string, request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result> {
  if (requestLog && name !== TOOL_EXECUTE) {
    const fields = { requestId: ctx.mcpReq.id, correlationId: correlationOf(ctx), session: host.id, method: request.method, server: 'switchboard', tool: name };
    return requestLog.local(fields, params.arguments, () => answerMetaTool(host, name, request, params, ctx));
  }
  return answerMetaTool(host, name, request, params, ctx);
}

async function answerMetaTool(host: MetaHost, name: string, request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result> {
  const catalog = await host.catalog();
  if (name === TOOL_DISCOVERY || name === TOOL_CAPABILITIES) await namedServerListed(host, catalog, params.arguments);
  if (name === TOOL_DISCOVERY) return runDiscovery(environment(host, catalog, ctx), params.arguments);
  if (name === TOOL_CAPABILITIES) return runCapabilities(environment(host, catalog), params.arguments);
  const { toolKey, arguments: args } = parseExecute(params.arguments);
  if (META_TOOL_NAMES.has(toolKey)) {
    throw actionableError('meta_tool', `"${toolKey}" is a meta-tool, not a catalog tool.`, [`Call ${toolKey} directly.`, 'Pass tool_execute a toolKey returned by tool_discovery.']);
  }
  const entry = catalog.toolTable.resolve(toolKey) ?? (await catalog.resolveLate('tools', toolKey));
  const held = entry ? undefined : catalog.withheld(toolKey);
  if (held) return withheldResult(toolKey, held);
  if (!entry) {
    throw actionableError(
      'unknown_tool',
      `Unknown toolKey "${toolKey}": no connected server offers it (it may have been removed, disabled, or misspelt).`,
      ['Call tool_discovery with what you want to do and use a toolKey it returns.', 'Call tool_capabilities to see the servers and their status.'],
      suggestionsFor(snapshot(host.local, catalog), toolKey),
      { toolKey },
    );
  }
  const tool = snapshot(host.local, catalog).byKey.get(toolKey);
  const verdict = validateArguments(tool?.definition.inputSchema, args);
  if (!verdict.valid) {
    const message = `Invalid arguments for ${toolKey}: ${describeIssues(verdict.issues)}. Schema excerpt: ${JSON.stringify(verdict.schemaExcerpt)}`;
    const recovery = ['Fix the listed fields and call tool_execute again.', `tool_discovery {"query": "${toolKey}", "detailLevel": "full"} shows the whole inputSchema.`];
    return {
      isError: true,
      content: [{ type: 'text', text: `${message} Recovery: ${recovery.join(' ')}` }],
      structuredContent: { errorType: 'invalid_arguments', toolKey, issues: verdict.issues, schema: verdict.schemaExcerpt ?? {}, recovery },
    };
  }
  const { arguments: _wrapped, name: _metaTool, ...rest } = params;
  const discovered = discoveryOf(host, toolKey);
  if (discovered) adoptCorrelation(ctx, discovered);
  return host.forwardTool(catalog, entry, toolKey, request, { ...rest, name: entry.originalName, arguments: args }, ctx);
}
