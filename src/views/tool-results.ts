// Owns what every gateway-local tool shares: validating its arguments with zod (an Invalid Params
// error naming each offending field) and shaping its answer (JSON text plus structuredContent, or
// an isError result).
import { ProtocolError } from '@modelcontextprotocol/server';
import type { z } from 'zod';

export type ToolResult = Record<string, unknown>;

export function parseArguments<T>(schema: z.ZodType<T>, args: unknown, tool: string): T {
  const result = schema.safeParse(args ?? {});
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
  throw new ProtocolError(-32602, `Invalid arguments for ${tool}: ${issues}`, { tool, errorType: 'invalid_arguments', issues: result.error.issues });
}

/** A result whose text is the JSON of `value` (indented when `pretty`), also as structuredContent. */
export function jsonResult(value: Record<string, unknown>, pretty = true): ToolResult {
  return { content: [{ type: 'text', text: pretty ? JSON.stringify(value, null, 2) : JSON.stringify(value) }], structuredContent: value };
}

export function errorResult(message: string, data: Record<string, unknown> = {}): ToolResult {
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { error: message, ...data } };
}
