// Owns the shim's side of the daemon's Streamable HTTP face, as a plain relay: each message is
// POSTed as it is (session id, protocol version and token in headers), answers come back as JSON or
// as a server-sent event stream and are handed on as they are, and after `notifications/initialized`
// one GET stream carries what the daemon sends on its own (list_changed, requests with no call
// running). No schema work: the daemon validates, the client validates. Written for the shim
// instead of the SDK's client transport, whose import alone (its zod schemas) took 210 ms of a
// shim's start-up, on node:http rather than fetch, whose first use cost another ~85 ms.
import http from 'node:http';

export type Message = Record<string, unknown> & { id?: string | number; method?: string };

/** The daemon answered an HTTP error; `status` 404 with a session means the session is gone. */
export class LinkError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'LinkError';
  }
}

export class HttpLink {
  onmessage?: (message: Message) => void;
  /** A stream broke (the daemon went away, or ended the session). */
  onerror?: (error: Error) => void;
  protocolVersion: string | undefined;
  private sessionId: string | undefined;
  private readonly agent = new http.Agent({ keepAlive: true });
  private readonly open = new Set<http.ClientRequest>();
  private streaming = false;
  private closed = false;

  constructor(
    private readonly url: URL,
    private readonly token: string,
  ) {}

  private headers(accept: string): Record<string, string> {
    return {
      accept,
      authorization: `Bearer ${this.token}`,
      ...(this.sessionId && { 'mcp-session-id': this.sessionId }),
      ...(this.protocolVersion && { 'mcp-protocol-version': this.protocolVersion }),
    };
  }

  /** One HTTP exchange on the keep-alive agent (node:http: no fetch machinery to load at start). */
  private request(method: string, headers: Record<string, string>, body?: string): Promise<http.IncomingMessage> {
    return new Promise((resolve, reject) => {
      const request = http.request(this.url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: this.agent }, resolve);
      this.open.add(request);
      request.once('close', () => this.open.delete(request));
      request.once('error', reject);
      request.end(body);
    });
  }

  /** POSTs one message; answers arrive through onmessage. Rejects when the daemon cannot take it. */
  async send(message: Message): Promise<void> {
    const response = await this.request('POST', { ...this.headers('application/json, text/event-stream'), 'content-type': 'application/json' }, JSON.stringify(message));
    const session = response.headers['mcp-session-id'];
    if (typeof session === 'string') this.sessionId = session;
    const status = response.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const text = await textOf(response).catch(() => '');
      throw new LinkError(status, `HTTP ${status}${status === 404 ? ' (session not found)' : ''}: ${text.slice(0, 500)}`);
    }
    const type = String(response.headers['content-type'] ?? '');
    if (type.includes('text/event-stream')) {
      void this.read(response).catch((error: Error) => this.broken(error));
    } else {
      const text = await textOf(response);
      if (status !== 202 && text.trim()) {
        const body = JSON.parse(text) as Message | Message[];
        for (const item of Array.isArray(body) ? body : [body]) this.onmessage?.(item);
      }
    }
    if (message.method === 'notifications/initialized') this.listen();
  }

  /** The GET stream for what the daemon sends outside a request's answer. */
  private listen(): void {
    if (this.streaming || this.closed) return;
    this.streaming = true;
    void (async () => {
      const response = await this.request('GET', this.headers('text/event-stream'));
      if (response.statusCode === 405) return void response.resume(); // no standalone stream offered
      if (response.statusCode !== 200) {
        response.resume();
        throw new LinkError(response.statusCode ?? 0, `the daemon's event stream answered HTTP ${response.statusCode}`);
      }
      await this.read(response);
      if (!this.closed) throw new Error('the daemon closed its event stream');
    })().catch((error: Error) => this.broken(error));
  }

  /** Hands on every `data:` of a server-sent event stream as one message. */
  private async read(body: http.IncomingMessage): Promise<void> {
    body.setEncoding('utf8');
    let buffer = '';
    for await (const chunk of body as AsyncIterable<string>) {
      buffer += chunk;
      for (let end = eventEnd(buffer); end; end = eventEnd(buffer)) {
        const data = dataOf(buffer.slice(0, end.at));
        buffer = buffer.slice(end.at + end.length);
        if (data !== undefined && data !== '') this.onmessage?.(JSON.parse(data) as Message);
      }
    }
  }

  private broken(error: Error): void {
    if (this.closed) return;
    this.onerror?.(error);
  }

  /** Ends the daemon session (DELETE) and every stream. */
  async close(terminate = true): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const request of this.open) request.destroy();
    if (terminate && this.sessionId) {
      await new Promise<void>((resolve) => {
        const request = http.request(this.url, { method: 'DELETE', headers: this.headers('application/json'), timeout: 2000 }, (response) => {
          response.resume();
          response.once('end', () => resolve());
        });
        request.once('error', () => resolve());
        request.once('timeout', () => request.destroy());
        request.end();
      });
    }
    this.agent.destroy();
  }
}

function textOf(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.once('end', () => resolve(text));
    response.once('error', reject);
  });
}

/** Where the first complete event of an SSE buffer ends (a blank line), if it does. */
function eventEnd(buffer: string): { at: number; length: number } | undefined {
  const lf = buffer.indexOf('\n\n');
  const crlf = buffer.indexOf('\r\n\r\n');
  if (lf === -1 && crlf === -1) return undefined;
  if (crlf !== -1 && (lf === -1 || crlf < lf)) return { at: crlf, length: 4 };
  return { at: lf, length: 2 };
}

/** The `data:` lines of one event, joined as the SSE format says (undefined for a comment-only event). */
function dataOf(event: string): string | undefined {
  let data: string | undefined;
  for (const line of event.split(/\r?\n/)) {
    if (!line.startsWith('data:')) continue;
    const value = line.slice(line[5] === ' ' ? 6 : 5);
    data = data === undefined ? value : `${data}\n${value}`;
  }
  return data;
}
