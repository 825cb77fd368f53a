// Owns the meta-tools of meta mode: tool_discovery (search the catalog), tool_execute (validate and
// call a tool by its key) and tool_capabilities (what kinds of tools exist, per server). Their
// definitions are generated from the live catalog (tool and server counts, server names) and kept
// compact; their arguments are validated with zod. tool_execute's forwarding lives in the session,
// which owns the forwarding path (metrics, progress, cancellation).
import { ProtocolError } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Entry } from '../catalog/catalog.js';
import { CATEGORY_NAMES, categoryDescription } from '../search/categories.js';
import type { SearchMode } from '../search/engine.js';
import type { MetaSnapshot, MetaTool } from './meta-index.js';
import { jsonResult, parseArguments } from './tool-results.js';

type Result = Record<string, unknown>;

export const TOOL_DISCOVERY = 'tool_discovery';
export const TOOL_EXECUTE = 'tool_execute';
export const TOOL_CAPABILITIES = 'tool_capabilities';
export const META_TOOL_NAMES: ReadonlySet<string> = new Set([TOOL_DISCOVERY, TOOL_EXECUTE, TOOL_CAPABILITIES]);

export const DESCRIPTION_CUT = 150;
export const MAX_RESULTS = 100;
export const DEFAULT_RESULTS = 10;
/** Servers named in the meta-tool descriptions; the rest are counted ("+N more"). */
const NAMED_SERVERS = 8;

export interface CatalogSummary {
  total: number;
  /** Server keys with their tool counts, in catalog order. */
  servers: Array<{ key: string; tools: number }>;
}

export function summaryOf(tools: readonly { server: string }[], serverKeys: readonly string[]): CatalogSummary {
  const counts = new Map<string, number>(serverKeys.map((k) => [k, 0]));
  for (const tool of tools) counts.set(tool.server, (counts.get(tool.server) ?? 0) + 1);
  return { total: tools.length, servers: [...counts].map(([key, n]) => ({ key, tools: n })) };
}

function serverLine(summary: CatalogSummary): string {
  const busiest = [...summary.servers].filter((s) => s.tools > 0).sort((a, b) => b.tools - a.tools);
  const named = busiest.slice(0, NAMED_SERVERS).map((s) => `${s.key} (${s.tools})`);
  const more = busiest.length - named.length;
  return `${summary.total} tools on ${busiest.length} server(s): ${named.join(', ') || 'none yet'}${more > 0 ? `, +${more} more` : ''}.`;
}

/** The three meta-tool definitions for tools/list, described from the live catalog. */
export function metaToolDefinitions(summary: CatalogSummary): Result[] {
  return [
    {
      name: TOOL_DISCOVERY,
      title: 'Find tools',
      description: `Search the gateway's tools by task. ${serverLine(summary)} Workflow: 1) tool_discovery {"query":"what you want to do"}; 2) tool_execute with a returned toolKey and arguments (detailLevel "full" shows the inputSchema). Nothing fits: rephrase, pass several queries, or browse tool_capabilities.`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }], description: 'Task words or tool name; several queries are merged.' },
          detailLevel: { type: 'string', enum: ['minimal', 'summary', 'full'], description: 'Default summary; full adds schemas.' },
          maxResults: { type: 'integer', minimum: 1, maximum: MAX_RESULTS, description: `Default ${DEFAULT_RESULTS}.` },
          category: { type: 'string', description: 'Only this category (see tool_capabilities).' },
          server: { type: 'string', description: 'Only this server.' },
          context: { type: 'string', description: 'Extra words about the task.' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: TOOL_EXECUTE,
      title: 'Run a tool',
      description: 'Call a tool found with tool_discovery. Arguments are checked against its inputSchema first; on an error, fix the listed fields, or use the fallback_suggestions / suggested_tools returned, or search again.',
      inputSchema: {
        type: 'object',
        properties: {
          toolKey: { type: 'string', description: 'toolKey from tool_discovery.' },
          arguments: { type: 'object', description: "The tool's arguments." },
        },
        required: ['toolKey'],
        additionalProperties: false,
      },
      annotations: { openWorldHint: true },
    },
    {
      name: TOOL_CAPABILITIES,
      title: 'What tools exist',
      description: 'Overview: tool count, categories with example tools, servers with tool counts and status. Use it to pick a category or server for tool_discovery.',
      inputSchema: {
        type: 'object',
        properties: { server: { type: 'string' }, category: { type: 'string' } },
        additionalProperties: false,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}



export interface SuggestedTool {
  toolKey: string;
  server: string;
  description: string;
}

/** An error a model can act on: what went wrong, what to do, and tools that may help. */
export function actionableError(errorType: string, message: string, recovery: string[], suggestions: SuggestedTool[] = [], extra: Record<string, unknown> = {}): ProtocolError {
  const suggested = suggestions.length ? ` Suggested tools: ${suggestions.map((s) => s.toolKey).join(', ')}.` : '';
  const text = `${message} Recovery: ${recovery.map((r, i) => `${i + 1}) ${r}`).join(' ')}${suggested}`;
  return new ProtocolError(-32602, text, { errorType, recovery, suggested_tools: suggestions, ...extra });
}

export function suggestionsFor(snapshot: MetaSnapshot, query: string, limit = 3, exclude?: string): SuggestedTool[] {
  const words = query.replace(/[_\-.]+/g, ' ');
  return snapshot
    .search(words, { limit: limit + 1 })
    .filter((r) => r.tool.key !== exclude)
    .slice(0, limit)
    .map((r) => ({ toolKey: r.tool.key, server: r.tool.server, description: cut(r.tool.description, 80) }));
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 3)}...`;
}

const discoveryArgs = z.strictObject({
  query: z.union([z.string(), z.array(z.string()).min(1).max(20)]),
  detailLevel: z.enum(['minimal', 'summary', 'full']).default('summary'),
  maxResults: z.int().min(1).max(MAX_RESULTS).default(DEFAULT_RESULTS),
  category: z.string().min(1).optional(),
  server: z.string().min(1).optional(),
  context: z.string().optional(),
});

export interface MetaEnvironment {
  snapshot: MetaSnapshot;
  /** Configured server keys, in order. */
  serverKeys: string[];
  status(server: string): { status: string; error?: string };
  /** Search mode of tool_discovery (default: the engine's). */
  mode?: SearchMode;
  /** Success-rate prior per tool (about 0.8..1). */
  prior?: (tool: MetaTool) => number;
  /** Told what each query showed (learning from use). */
  onResults?: (query: string, shown: MetaTool[]) => void;
  /** The tools this client may see (its scope); the others are never found, counted or named. */
  visible?: (tool: MetaTool) => boolean;
}

function checkServer(env: MetaEnvironment, server: string | undefined): void {
  if (server === undefined || env.serverKeys.includes(server)) return;
  throw actionableError('unknown_server', `No server "${server}".`, [`Use one of: ${env.serverKeys.join(', ') || 'none configured'}.`, 'Or leave "server" out to search every server.'], [], { server, servers: env.serverKeys });
}

function checkCategory(category: string | undefined): void {
  if (category === undefined || CATEGORY_NAMES.includes(category)) return;
  throw actionableError('unknown_category', `No category "${category}".`, [`Use one of: ${CATEGORY_NAMES.join(', ')}.`, 'Or leave "category" out.'], [], { category, categories: CATEGORY_NAMES });
}

export async function runDiscovery(env: MetaEnvironment, args: unknown): Promise<Result> {
  const input = parseArguments(discoveryArgs, args, TOOL_DISCOVERY);
  checkServer(env, input.server);
  checkCategory(input.category);
  const { snapshot } = env;
  const queries = (Array.isArray(input.query) ? input.query : [input.query]).map((q) => q.trim()).filter(Boolean);
  const visible = env.visible;
  const inScope = (t: MetaTool) => (!input.server || t.server === input.server) && (!input.category || t.category === input.category) && (!visible || visible(t));
  let ranked: Array<{ tool: MetaTool; relevance: number }>;
  const notes = new Set<string>();
  let mode: string | undefined;
  const perQuery: Array<[string, MetaTool[]]> = [];
  if (queries.length === 0) {
    ranked = snapshot.tools.filter(inScope).map((tool) => ({ tool, relevance: 1 }));
  } else {
    const best = new Map<string, { tool: MetaTool; score: number }>();
    for (const query of queries) {
      const text = input.context ? `${query} ${input.context}` : query;
      const found = await snapshot.find(text, {
        limit: input.maxResults,
        ...(env.mode && { mode: env.mode }),
        ...(input.server && { server: input.server }),
        ...((input.category || visible) && { filter: inScope }),
        ...(env.prior && { prior: env.prior }),
      });
      mode = found.mode;
      if (found.degraded) notes.add(found.degraded);
      perQuery.push([query, found.ranked.map((h) => h.tool)]);
      // Scores of different queries are comparable only as shares of their own best.
      const top = found.ranked[0]?.score || 1;
      for (const hit of found.ranked) {
        const score = hit.score / top;
        const seen = best.get(hit.tool.key);
        if (!seen || score > seen.score) best.set(hit.tool.key, { tool: hit.tool, score });
      }
    }
    const hits = [...best.values()].sort((a, b) => b.score - a.score);
    ranked = hits.map((h) => ({ tool: h.tool, relevance: Math.round(h.score * 1000) / 1000 }));
  }
  const shown = ranked.slice(0, input.maxResults);
  // Learning from use hears, per query, only the tools the client was actually shown.
  const shownKeys = new Set(shown.map((r) => r.tool.key));
  for (const [query, tools] of perQuery) env.onResults?.(query, tools.filter((t) => shownKeys.has(t.key)));
  const tools = shown.map(({ tool, relevance }) => render(tool, relevance, input.detailLevel));
  const metadata: Record<string, unknown> = { query: input.query, detailLevel: input.detailLevel, resultCount: tools.length, ...(mode && { searchMode: mode }) };
  if (notes.size) metadata.note = [...notes].join(' ');
  if (tools.length === 0) metadata.hint = 'No match. Rephrase with other words, drop the category/server filter, or call tool_capabilities to browse.';
  return jsonResult({ tools, metadata }, false);
}

function render(tool: MetaTool, relevance: number, level: 'minimal' | 'summary' | 'full'): Record<string, unknown> {
  const minimal = { toolKey: tool.key, toolName: tool.originalName, serverName: tool.server };
  if (level === 'minimal') return minimal;
  if (level === 'summary') return { ...minimal, description: cut(tool.description, DESCRIPTION_CUT), relevance };
  const def: Entry = tool.definition;
  return {
    ...minimal,
    description: tool.description,
    relevance,
    inputSchema: def.inputSchema ?? { type: 'object' },
    ...(def.outputSchema !== undefined && { outputSchema: def.outputSchema }),
    ...(def.annotations !== undefined && { annotations: def.annotations }),
  };
}

const capabilityArgs = z.strictObject({ server: z.string().min(1).optional(), category: z.string().min(1).optional() });

export function runCapabilities(env: MetaEnvironment, args: unknown): Result {
  const input = parseArguments(capabilityArgs, args, TOOL_CAPABILITIES);
  checkServer(env, input.server);
  checkCategory(input.category);
  const tools = env.snapshot.tools.filter((t) => (!input.server || t.server === input.server) && (!input.category || t.category === input.category) && (!env.visible || env.visible(t)));
  const byCategory = new Map<string, MetaTool[]>();
  for (const tool of tools) byCategory.set(tool.category, [...(byCategory.get(tool.category) ?? []), tool]);
  const categories = [...byCategory]
    .sort((a, b) => b[1].length - a[1].length || CATEGORY_NAMES.indexOf(a[0]) - CATEGORY_NAMES.indexOf(b[0]))
    .map(([name, members]) => ({ name, description: categoryDescription(name), count: members.length, examples: members.slice(0, 3).map((t) => t.key) }));
  const servers = env.serverKeys
    .filter((key) => !input.server || key === input.server)
    .map((key) => {
      const own = tools.filter((t) => t.server === key);
      const { status, error } = env.status(key);
      return { server: key, tools: own.length, status, categories: [...new Set(own.map((t) => t.category))], ...(error && { error }) };
    })
    .filter((s) => !input.category || s.tools > 0);
  return jsonResult({ totalTools: tools.length, categories, servers }, false);
}

const executeArgs = z.strictObject({ toolKey: z.string().min(1), arguments: z.record(z.string(), z.unknown()).optional() });

export function parseExecute(args: unknown): { toolKey: string; arguments: Record<string, unknown> } {
  const input = parseArguments(executeArgs, args, TOOL_EXECUTE);
  return { toolKey: input.toolKey, arguments: input.arguments ?? {} };
}
