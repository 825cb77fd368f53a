// Owns answering a session on the management endpoint (/gateway/mcp): it lists and runs the gateway's own tools
// (metrics, toolsets, optimization when enabled) and forwards nothing. The calling client's model is offered to
// the tools that can use it (optimization's sampling backend, search re-ranking), only when it declared sampling.
import { ProtocolError } from '@modelcontextprotocol/server';
import type { ClientCapabilities, JSONRPCRequest, ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { CreateMessage } from '../search/rerank/chat.js';
import { callManagementTool, managementToolList } from './management.js';
import { TOOLSET_TOOL_NAMES, callToolsetTool, toolsetToolList, type ToolsetToolContext } from './toolset-tools.js';
import type { LocalToolContext } from './ports.js';

type Params = Record<string, unknown>;

/** The optimization tools (and what they load) come in only on a gateway that serves them, once. */
let optimizationTools: Promise<typeof import('../optimize/mcp-tools.js')> | undefined;
const loadOptimizationTools = () => (optimizationTools ??= import('../optimize/mcp-tools.js'));
type Result = Record<string, unknown>;

export interface ManagementHost {
  /** What the local tools act on. */
  readonly local: LocalToolContext;
  readonly clientCapabilities: ClientCapabilities | undefined;
  toolsetContext(): ToolsetToolContext;
}

export async function answerManagement(host: ManagementHost, request: JSONRPCRequest, params: Params, ctx: ServerContext): Promise<Result> {
  const local = host.local;
  const optimization = local.optimization;
  const tools = optimization ? await loadOptimizationTools() : undefined;
  if (request.method === 'tools/list') return { tools: [...managementToolList(), ...(local.toolsets ? toolsetToolList() : []), ...(tools ? tools.optimizationToolList() : [])] };
  if (request.method !== 'tools/call') throw new ProtocolError(-32601, `Method not found: ${request.method} (the management endpoint offers tools only)`);
  if (optimization && tools && typeof params.name === 'string' && tools.OPTIMIZATION_TOOL_NAMES.has(params.name)) {
    // The calling client's model, for the sampling backend: requests go on the stream of this call.
    const sample = (p: Params, o: { signal?: AbortSignal }) => ctx.mcpReq.send({ method: 'sampling/createMessage', params: p } as never, z.looseObject({}), o) as Promise<Params>;
    return tools.callOptimizationTool(optimization, params.name, params.arguments, { clientCapabilities: host.clientCapabilities, sample });
  }
  if (typeof params.name === 'string' && TOOLSET_TOOL_NAMES.has(params.name)) return callToolsetTool(host.toolsetContext(), params.name, params.arguments);
  // Sampling only for a client that declared it; sent on the stream of the request that asked.
  const createMessage: CreateMessage | undefined = host.clientCapabilities?.sampling
    ? (p, o) => ctx.mcpReq.send({ method: 'sampling/createMessage', params: p } as never, z.looseObject({ content: z.unknown() }), o) as Promise<{ content: unknown }>
    : undefined;
  return callManagementTool(local, params.name, params.arguments, { ...(createMessage && { createMessage }) });
}
