// Owns the management tools served at /gateway/mcp (and /g/mcp): tools about the gateway itself,
// answered locally, never forwarded, acting on a LocalToolContext (never the Gateway). Arguments are validated with zod; results carry both a text
// rendering and structuredContent.
import { ProtocolError } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { LocalToolContext } from './ports.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { jsonResult, parseArguments } from '../views/tool-results.js';
import type { CreateMessage } from '../search/rerank/chat.js';
import { closeMatches } from '../catalog/naming.js';
import { CATEGORY_NAMES } from '../search/categories.js';
import { SEARCH_MODES } from '../search/engine.js';

type Result = Record<string, unknown>;

/** Arguments of search_tools, shared with POST /api/tools/search. */
export const searchArguments = z.strictObject({
  query: z.string().min(1),
  top_k: z.int().min(1).max(100).optional(),
  min_score: z.number().min(0).optional(),
  server: z.string().min(1).optional(),
  category: z.enum(CATEGORY_NAMES as [string, ...string[]]).optional(),
  mode: z.enum(SEARCH_MODES).optional(),
});

export interface ManagementTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  run(context: LocalToolContext, args: unknown, caller?: ManagementCaller): Promise<Result> | Result;
}

/** What the calling client offers a management tool: sampling only when it declared the capability. */
export interface ManagementCaller {
  createMessage?: CreateMessage;
}

const serverTool = z.strictObject({ server: z.string().min(1).optional(), tool: z.string().min(1).optional() });
const SERVER_TOOL_SCHEMA = {
  type: 'object',
  properties: {
    server: { type: 'string', description: 'Only this server (its key in the config).' },
    tool: { type: 'string', description: 'Only this tool (its original name on the server).' },
  },
  additionalProperties: false,
};


function needHistory(context: LocalToolContext, tool: string) {
  if (!context.history) throw new ProtocolError(-32603, `${tool} needs the metrics store, and this gateway runs without one.`);
  return context.history;
}


export const MANAGEMENT_TOOLS: readonly ManagementTool[] = [
  {
    name: 'get_tool_metrics',
    title: 'Tool call metrics',
    description: 'Calls, successes, failures, success rate, p50/p95/p99 latency and the last error of every tool called through this gateway (optionally one server or tool).',
    inputSchema: SERVER_TOOL_SCHEMA,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run(context, args) {
      const { server, tool } = parseArguments(serverTool, args, 'get_tool_metrics');
      // This gateway's servers at their current identity: never another project's server of the same name.
      const tools = needHistory(context, 'get_tool_metrics').metrics.toolStats({ server, tool, scope: context.servers.identities() });
      return jsonResult({ tools });
    },
  },
  {
    name: 'reset_tool_metrics',
    title: 'Reset tool call metrics',
    description: 'Deletes recorded calls and daily aggregates (all, one server, or one tool). Cannot be undone.',
    inputSchema: SERVER_TOOL_SCHEMA,
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run(context, args) {
      const { server, tool } = parseArguments(serverTool, args, 'reset_tool_metrics');
      const deleted = needHistory(context, 'reset_tool_metrics').reset({ server, tool, scope: context.servers.identities() });
      return jsonResult({ reset: { server: server ?? null, tool: tool ?? null }, ...deleted });
    },
  },
  {
    name: 'get_tool_alternatives',
    title: 'Alternatives to a tool',
    description: 'Tools similar to one tool, ranked by search similarity × recorded success rate, never the tool itself nor one of a server that is down: what to use when it fails.',
    inputSchema: {
      type: 'object',
      properties: {
        server: { type: 'string', description: 'The server key in the config.' },
        tool: { type: 'string', description: 'The tool\'s original name on that server.' },
        max: { type: 'integer', minimum: 1, maximum: 20, description: 'At most this many (default: the maxFallbacks setting, 3).' },
      },
      required: ['server', 'tool'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(context, args) {
      const { server, tool, max } = parseArguments(z.strictObject({ server: z.string().min(1), tool: z.string().min(1), max: z.int().min(1).max(20).optional() }), args, 'get_tool_alternatives');
      if (!context.servers.has(server)) {
        throw new ProtocolError(-32602, `Unknown server "${server}". Configured: ${context.servers.keys().join(', ') || 'none'}.`, { server, servers: context.servers.keys() });
      }
      const catalog = context.catalogs.catalogFor(BARE_PROFILE);
      await catalog.ensure();
      const toolKey = catalog.toolTable.exposedName(server, tool);
      if (!toolKey) {
        const known = catalog.listing(server).tools.map((t) => t.name as string);
        throw new ProtocolError(-32602, `Server "${server}" has no tool "${tool}" (original names: ${known.join(', ') || 'none listed'}).`, { server, tool, tools: known });
      }
      return jsonResult({ tool: { server, tool, toolKey }, alternatives: context.ranking.fallbacksFor(catalog, toolKey, max ?? Math.max(1, context.meta.maxFallbacks)) });
    },
  },
  {
    name: 'recommend_tools',
    title: 'Recommend tools for a task',
    description: 'The tools best suited to a task described in words: search relevance weighted by each tool\'s recorded success rate (tools of servers that are down are left out). Use the toolKey with tools/call on /mcp or tool_execute in meta mode.',
    inputSchema: {
      type: 'object',
      properties: {
        task_description: { type: 'string', description: 'What you want to get done, in plain words.' },
        top_k: { type: 'integer', minimum: 1, maximum: 50, description: 'How many tools (default 5).' },
        mode: { type: 'string', enum: ['search', 'llm'], description: 'Ranking: "search" (search with success-rate priors, default) or "llm" (the top candidates re-ranked by a chat model: the configured search.llm endpoint, else your client\'s sampling; falls back to "search" with a note).' },
      },
      required: ['task_description'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(context, args, caller) {
      const input = parseArguments(
        z.strictObject({ task_description: z.string().min(1).max(4000), top_k: z.int().min(1).max(50).optional(), mode: z.enum(['search', 'llm']).optional() }),
        args,
        'recommend_tools',
      );
      const catalog = context.catalogs.catalogFor(BARE_PROFILE);
      await catalog.ensure();
      if (input.mode === 'llm') {
        const answer = await context.ranking.recommendWithLlm(catalog, input.task_description, input.top_k ?? 5, caller?.createMessage);
        return jsonResult({ task_description: input.task_description, ...answer });
      }
      return jsonResult({ task_description: input.task_description, mode: input.mode ?? 'search', tools: context.ranking.recommend(catalog, input.task_description, input.top_k ?? 5) });
    },
  },
  {
    name: 'search_tools',
    title: 'Search tools',
    description: 'Searches every tool of every server by what it does (names, descriptions, parameters; stemming, synonyms, typos; meaning too when embeddings are configured). Returns exposed names, best first.',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', description: 'What you are looking for, in words.' },
        top_k: { type: 'integer', minimum: 1, maximum: 100, description: 'At most this many (default 10).' },
        min_score: { type: 'number', minimum: 0, description: 'Leave out hits scoring below this.' },
        server: { type: 'string', description: 'Only this server.' },
        category: { type: 'string', enum: [...CATEGORY_NAMES], description: 'Only tools of this category.' },
        mode: { type: 'string', enum: [...SEARCH_MODES], description: 'lexical (words), semantic (embeddings) or hybrid (both fused). Default: the configured mode.' },
      },
      required: ['query'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(context, args) {
      const input = parseArguments(searchArguments, args, 'search_tools');
      const catalog = context.catalogs.catalogFor(BARE_PROFILE);
      await catalog.ensure();
      const answer = await context.ranking.searchTools(catalog, input.query, { topK: input.top_k ?? 10, minScore: input.min_score, server: input.server, category: input.category, mode: input.mode });
      return jsonResult({ query: input.query, ...answer });
    },
  },
  {
    name: 'get_tool_schema',
    title: 'A tool\'s full definition',
    description: 'The full definition of one tool by its exposed name: inputSchema, outputSchema, annotations, description, and its server and original name.',
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'The exposed name, e.g. github_create_issue.' } }, required: ['name'], additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async run(context, args) {
      const { name } = parseArguments(z.strictObject({ name: z.string().min(1) }), args, 'get_tool_schema');
      const catalog = context.catalogs.catalogFor(BARE_PROFILE);
      await catalog.ensure();
      const entry = catalog.toolTable.resolve(name);
      if (!entry) {
        const suggestions = closeMatches(name, catalog.toolTable.entries().map((e) => e.exposed));
        throw new ProtocolError(-32602, `Unknown tool: "${name}".${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ''}`, { name, suggestions });
      }
      const tool = catalog.tools().find((t) => t.name === name)!;
      return jsonResult({ server: entry.serverKey, tool: entry.originalName, definition: tool });
    },
  },
];

export function managementToolList(): Result[] {
  return MANAGEMENT_TOOLS.map(({ run: _run, ...definition }) => definition);
}

export async function callManagementTool(context: LocalToolContext, name: unknown, args: unknown, caller: ManagementCaller = {}): Promise<Result> {
  const tool = MANAGEMENT_TOOLS.find((t) => t.name === name);
  if (!tool) {
    const known = MANAGEMENT_TOOLS.map((t) => t.name).join(', ');
    throw new ProtocolError(-32602, `Unknown management tool: "${String(name)}". Available: ${known}.`, { name, available: MANAGEMENT_TOOLS.map((t) => t.name) });
  }
  return tool.run(context, args, caller);
}
