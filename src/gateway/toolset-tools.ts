// Owns the toolset management tools (discover-all-tools, build-toolset, equip-toolset,
// unequip-toolset, get-active-toolset, list-toolsets, delete-toolset): always visible in toolset
// mode and on the management endpoint. Arguments are validated with zod; results are JSON text
// plus structuredContent. Saved toolsets are shared; which one is equipped belongs to whoever calls
// (one session in toolset mode, the gateway's default on the management endpoint): see `equipped`,
// SessionToolset (a session's own choice) and defaultToolset.
import { ProtocolError } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Catalog } from '../catalog/catalog.js';
import { ToolReferenceError } from '../views/toolset-refs.js';
import type { ToolsetService } from '../views/toolsets.js';
import type { ManagementTool } from './management.js';
import { errorResult, jsonResult, parseArguments } from '../views/tool-results.js';

type Result = Record<string, unknown>;

/** The equipped toolset as the caller sees it: its own choice, never another session's. */
export interface EquippedToolset {
  /** The equipped toolset's name (undefined: none). */
  current(): string | undefined;
  /** Equips a saved toolset (throws naming the saved ones when there is none of that name). */
  equip(name: string): Promise<void>;
  /** Unequips; returns what was equipped. */
  unequip(): Promise<string | undefined>;
}

export interface ToolsetToolContext {
  toolsets: ToolsetService;
  equipped: EquippedToolset;
  catalog(): Promise<Catalog>;
  serverKeys(): string[];
}

/**
 * A session's own toolset choice: until it equips or unequips one itself it follows the gateway's
 * default; after that, only its own (a name, or none). `changed` tells its client its tools changed.
 */
export class SessionToolset {
  private own: { name: string | undefined } | undefined;

  constructor(
    private readonly toolsets: ToolsetService | undefined,
    private readonly changed: () => void,
  ) {}

  /** True while the session has not equipped or unequipped a toolset itself. */
  get followsDefault(): boolean {
    return this.own === undefined;
  }

  /** The toolset the session sees: its own choice, else the gateway's default. */
  current(): string | undefined {
    return this.own ? this.own.name : this.toolsets?.active();
  }

  /** What equip-toolset and unequip-toolset change for this session: never the gateway's default. */
  equipped(toolsets: ToolsetService): EquippedToolset {
    return {
      current: () => this.current(),
      equip: async (name) => {
        if (!toolsets.get(name)) throw new Error(`No toolset named "${name}". Saved toolsets: ${toolsets.list().map((t) => t.name).join(', ') || 'none'}.`);
        this.own = { name };
        this.changed();
      },
      unequip: async () => {
        const previous = this.current();
        this.own = { name: undefined };
        if (previous !== undefined) this.changed();
        return previous;
      },
    };
  }
}

/** The gateway's default toolset, as the management endpoint changes it (persisted). */
export function defaultToolset(toolsets: ToolsetService): EquippedToolset {
  return { current: () => toolsets.active(), equip: async (name) => void (await toolsets.equip(name)), unequip: () => toolsets.unequip() };
}

const name = z.string().min(1).max(100);
const reference = z.union([z.strictObject({ namespacedName: z.string().min(3) }), z.strictObject({ server: z.string().min(1), tool: z.string().min(1) })]);

const NAME_ONLY = { type: 'object', properties: { name: { type: 'string', description: 'The toolset name.' } }, required: ['name'], additionalProperties: false };
const NO_ARGS = { type: 'object', properties: {}, additionalProperties: false };

type Runner = (ctx: ToolsetToolContext, args: unknown) => Promise<Result>;
const tool = (definition: Omit<ManagementTool, 'run'>, run: Runner) => ({ definition, run });

export const TOOLSET_TOOLS = [
  tool(
    {
      name: 'discover-all-tools',
      title: 'Discover all tools',
      description: 'Every tool of every connected server (whatever toolset is equipped): its exposed name, server, original name and description. Use the server and original name in build-toolset.',
      inputSchema: { type: 'object', properties: { server: { type: 'string', description: 'Only this server.' } }, additionalProperties: false },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async (ctx, args) => {
      const { server } = parseArguments(z.strictObject({ server: z.string().optional() }), args, 'discover-all-tools');
      const catalog = await ctx.catalog();
      const tools = catalog.toolTable
        .entries()
        .filter((e) => !server || e.serverKey === server)
        .map((e) => {
          const definition = catalog.listing(e.serverKey).tools.find((t) => t.name === e.originalName);
          return { name: e.exposed, server: e.serverKey, tool: e.originalName, namespacedName: `${e.serverKey}.${e.originalName}`, description: (definition?.description as string | undefined) ?? '' };
        });
      const unavailable = ctx.serverKeys().filter((k) => catalog.listing(k).error).map((k) => ({ server: k, reason: catalog.listing(k).error }));
      return jsonResult({ tools, unavailable });
    },
  ),
  tool(
    {
      name: 'build-toolset',
      title: 'Build a toolset',
      description: 'Saves a named toolset: a list of tools, each {"namespacedName": "server.tool"} or {"server": "...", "tool": "..."}. Replaces a toolset of the same name. Every tool must exist.',
      inputSchema: {
        type: 'object',
        properties: {
          name: { type: 'string', description: 'The toolset name, e.g. "dev-essentials".' },
          description: { type: 'string' },
          tools: {
            type: 'array',
            minItems: 1,
            items: {
              oneOf: [
                { type: 'object', properties: { namespacedName: { type: 'string' } }, required: ['namespacedName'], additionalProperties: false },
                { type: 'object', properties: { server: { type: 'string' }, tool: { type: 'string' } }, required: ['server', 'tool'], additionalProperties: false },
              ],
            },
          },
        },
        required: ['name', 'tools'],
        additionalProperties: false,
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (ctx, args) => {
      const input = parseArguments(z.strictObject({ name, description: z.string().optional(), tools: z.array(reference).min(1) }), args, 'build-toolset');
      try {
        const saved = await ctx.toolsets.build(input, await ctx.catalog(), ctx.serverKeys());
        return jsonResult({ saved: { name: saved.name, tools: saved.tools.length }, toolset: saved });
      } catch (error) {
        if (error instanceof ToolReferenceError) return errorResult(`Toolset not saved: ${error.message}`, { reference: error.reference, suggestions: error.suggestions });
        throw error;
      }
    },
  ),
  tool(
    { name: 'equip-toolset', title: 'Equip a toolset', description: 'Makes the named toolset the tools this client sees (in toolset mode; on the management endpoint: the default for toolset-mode clients that did not equip their own); it is told the list changed.', inputSchema: NAME_ONLY, annotations: { idempotentHint: true, openWorldHint: false } },
    async (ctx, args) => {
      const { name: toolset } = parseArguments(z.strictObject({ name }), args, 'equip-toolset');
      try {
        await ctx.equipped.equip(toolset);
      } catch (error) {
        return errorResult((error as Error).message);
      }
      return jsonResult({ equipped: ctx.toolsets.resolve(toolset, await ctx.catalog()) ?? null });
    },
  ),
  tool(
    { name: 'unequip-toolset', title: 'Unequip the toolset', description: 'Removes the equipped toolset: this client (on the management endpoint: the default) sees only these management tools again.', inputSchema: NO_ARGS, annotations: { idempotentHint: true, openWorldHint: false } },
    async (ctx, args) => {
      parseArguments(z.strictObject({}), args, 'unequip-toolset');
      return jsonResult({ unequipped: (await ctx.equipped.unequip()) ?? null });
    },
  ),
  tool(
    { name: 'get-active-toolset', title: 'The equipped toolset', description: 'The equipped toolset: the tools registered now, and those missing with the reason (server down, tool gone).', inputSchema: NO_ARGS, annotations: { readOnlyHint: true, openWorldHint: false } },
    async (ctx, args) => {
      parseArguments(z.strictObject({}), args, 'get-active-toolset');
      const resolved = ctx.toolsets.resolve(ctx.equipped.current(), await ctx.catalog());
      if (!resolved) return jsonResult({ active: null });
      return jsonResult({ active: resolved.name, registered: resolved.tools.map((t) => t.name), missing: resolved.missing });
    },
  ),
  tool(
    { name: 'list-toolsets', title: 'List toolsets', description: 'Every saved toolset with its description, tool count and whether it is equipped.', inputSchema: NO_ARGS, annotations: { readOnlyHint: true, openWorldHint: false } },
    async (ctx, args) => {
      parseArguments(z.strictObject({}), args, 'list-toolsets');
      const active = ctx.equipped.current();
      return jsonResult({ toolsets: ctx.toolsets.list().map((t) => ({ name: t.name, description: t.description ?? null, tools: t.tools.length, equipped: t.name === active })) });
    },
  ),
  tool(
    { name: 'delete-toolset', title: 'Delete a toolset', description: 'Deletes a saved toolset (unequipping it if it is equipped). Cannot be undone.', inputSchema: NAME_ONLY, annotations: { destructiveHint: true, openWorldHint: false } },
    async (ctx, args) => {
      const { name: toolset } = parseArguments(z.strictObject({ name }), args, 'delete-toolset');
      const deleted = await ctx.toolsets.delete(toolset);
      return deleted ? jsonResult({ deleted: toolset }) : errorResult(`No toolset named "${toolset}".`);
    },
  ),
];

export const TOOLSET_TOOL_NAMES = new Set(TOOLSET_TOOLS.map((t) => t.definition.name));

export function toolsetToolList(): Result[] {
  return TOOLSET_TOOLS.map((t) => ({ ...t.definition }));
}

export async function callToolsetTool(ctx: ToolsetToolContext, toolName: string, args: unknown): Promise<Result> {
  const found = TOOLSET_TOOLS.find((t) => t.definition.name === toolName);
  if (!found) throw new ProtocolError(-32602, `Unknown toolset tool: "${toolName}"`);
  return found.run(ctx, args);
}
