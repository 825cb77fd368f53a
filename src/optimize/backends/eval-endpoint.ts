// Owns the per-evaluation MCP endpoint a client under test (claude-code) connects to: a minimal stateless
// Streamable HTTP server on 127.0.0.1 that lists exactly the tool list being evaluated and never runs a tool
// (tools/call answers an error). The list is swapped between evaluations.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { EvalTool } from './backend.js';

const MAX_BODY = 1_000_000;

export class EvalEndpoint {
  private tools: readonly EvalTool[] = [];
  private server: Server | undefined;
  url = '';

  setTools(tools: readonly EvalTool[]): void {
    this.tools = tools;
  }

  async start(): Promise<string> {
    if (this.server) return this.url;
    this.server = createServer((req, res) => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      let raw = '';
      req.on('data', (chunk: Buffer) => {
        raw += chunk.toString();
        if (raw.length > MAX_BODY) req.destroy();
      });
      req.on('end', () => {
        let message: { id?: unknown; method?: string; params?: { protocolVersion?: string } };
        try {
          message = JSON.parse(raw);
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }));
          return;
        }
        if (message.id === undefined) {
          res.writeHead(202).end(); // a notification
          return;
        }
        const result = this.answer(message.method ?? '', message.params);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...result }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/mcp`;
    return this.url;
  }

  private answer(method: string, params: { protocolVersion?: string } | undefined): { result: unknown } | { error: { code: number; message: string } } {
    switch (method) {
      case 'initialize':
        return { result: { protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'switchboard-eval', version: '1' } } };
      case 'ping':
        return { result: {} };
      case 'tools/list':
        return { result: { tools: this.tools.map((t) => ({ name: t.name, description: t.description ?? '', inputSchema: t.inputSchema ?? { type: 'object', properties: {} } })) } };
      case 'tools/call':
        return { result: { isError: true, content: [{ type: 'text', text: 'Switchboard evaluation: tools are never executed.' }] } };
      default:
        return { error: { code: -32601, message: `method not found: ${method}` } };
    }
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
