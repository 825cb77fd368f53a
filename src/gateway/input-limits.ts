// Owns the bounds on what a client may send and get back: JSON nesting depth of request params,
// tool-name length, concurrent calls per session, and result size (cut with a notice). A client's
// bad input is refused here as the client's error (-32602) before anything reaches a server, so it
// is never counted as a server's fault and never trips a breaker.
import { ProtocolError } from '@modelcontextprotocol/server';
import { DEFAULT_SETTINGS, type LimitSettings } from '../config/index.js';

export const DEFAULT_LIMITS: LimitSettings = { ...DEFAULT_SETTINGS.limits };

/** JSON-RPC code for "too many requests at once" (implementation-defined range). */
export const TOO_MANY_REQUESTS = -32029;

/** True when `value` nests arrays/objects deeper than `max` (iterative: deep input cannot overflow the stack). */
export function deeperThan(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(node) ? node : Object.values(node as Record<string, unknown>);
    for (const child of children) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** Refuses params nested deeper than the limit: -32602, naming the limit. */
export function checkDepth(params: unknown, limits: LimitSettings): void {
  if (deeperThan(params, limits.maxJsonDepth)) {
    throw new ProtocolError(-32602, `Invalid params: nested deeper than ${limits.maxJsonDepth} levels (switchboard.limits.maxJsonDepth). Flatten the arguments.`);
  }
}

/** Refuses a tool/prompt name longer than the limit (never forwarded, recorded or stored). */
export function checkName(name: string, limits: LimitSettings): void {
  if (name.length > limits.maxToolNameLength) {
    throw new ProtocolError(-32602, `Invalid params: "name" is ${name.length} characters; at most ${limits.maxToolNameLength} are accepted (switchboard.limits.maxToolNameLength).`);
  }
}

type Result = Record<string, unknown>;

/** One session's running tool calls: refuses one over the limit (-32029) and bounds each result. */
export class CallGate {
  private running = 0;

  async run(limits: LimitSettings, call: () => Promise<Result>): Promise<Result> {
    if (this.running >= limits.concurrentCallsPerSession) {
      throw new ProtocolError(TOO_MANY_REQUESTS, `Too many concurrent tool calls in this session: ${limits.concurrentCallsPerSession} are running (switchboard.limits.concurrentCallsPerSession). Wait for one to finish.`, { limit: limits.concurrentCallsPerSession });
    }
    this.running++;
    try {
      return boundResult(await call(), limits.maxResultChars);
    } finally {
      this.running--;
    }
  }
}

/**
 * Cuts a tool result whose text and binary payloads exceed `maxChars` characters: items past the
 * budget are dropped or shortened, and a text notice says so. Results under the budget are returned
 * as they are (the common case costs one pass over `content`).
 */
export function boundResult(result: Result, maxChars: number): Result {
  const content = result.content;
  if (!Array.isArray(content)) return result;
  let total = 0;
  for (const item of content as Array<Record<string, unknown>>) total += payloadLength(item);
  if (total <= maxChars) return result;
  let budget = maxChars;
  const kept: unknown[] = [];
  for (const item of content as Array<Record<string, unknown>>) {
    const size = payloadLength(item);
    if (size <= budget) {
      kept.push(item);
      budget -= size;
    } else if (typeof item.text === 'string' && budget > 0) {
      kept.push({ ...item, text: item.text.slice(0, budget) });
      budget = 0;
    }
  }
  kept.push({ type: 'text', text: `[switchboard: result truncated: ${total} characters of content, at most ${maxChars} are passed on (switchboard.limits.maxResultChars)]` });
  const { structuredContent: _dropped, ...rest } = result;
  return { ...rest, content: kept, _meta: { ...(result._meta as Result | undefined), 'switchboard/truncated': { originalChars: total, maxChars } } };
}

function payloadLength(item: Record<string, unknown>): number {
  let size = 0;
  if (typeof item.text === 'string') size += item.text.length;
  if (typeof item.data === 'string') size += item.data.length;
  const resource = item.resource as Record<string, unknown> | undefined;
  if (resource && typeof resource.text === 'string') size += resource.text.length;
  if (resource && typeof resource.blob === 'string') size += resource.blob.length;
  return size;
}
