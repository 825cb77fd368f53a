// Test helper for the optimization tools: one tools/call on /gateway/mcp read back as its flag, its structured
// value and its text.
import type { ConnectedClient } from '../helpers/gateway.js';

export interface ToolAnswer {
  isError?: boolean;
  value: Record<string, unknown>;
  text: string;
}

export async function callTool(c: ConnectedClient, name: string, args: Record<string, unknown>): Promise<ToolAnswer> {
  const result = (await c.client.callTool({ name, arguments: args })) as { isError?: boolean; content: Array<{ text: string }>; structuredContent?: Record<string, unknown> };
  return { isError: result.isError, value: result.structuredContent ?? {}, text: result.content[0].text };
}
