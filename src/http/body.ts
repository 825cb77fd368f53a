// Owns reading an HTTP request body within a byte limit (a declared Content-Length over it is
// refused and, from Node's request, drained unread so the connection stays usable; a streamed body
// stops being read at the limit), then parsing it as JSON.
import type { IncomingMessage } from 'node:http';
export type BodyResult = { ok: true; body: unknown; bytes: number } | { ok: false; status: 400 | 413; code: number; message: string };

export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  const tooLarge = { ok: false as const, status: 413 as const, code: -32600, message: `Payload Too Large: a request body here may be at most ${maxBytes} bytes (switchboard.limits).` };
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    return tooLarge;
  }
  if (!request.body) return { ok: false, status: 400, code: -32700, message: 'Parse error: the body is empty' };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return tooLarge;
    }
    chunks.push(value);
  }
  const text = Buffer.concat(chunks, received).toString('utf8');
  try {
    return { ok: true, body: JSON.parse(text), bytes: received };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' };
  }
}

/** readJsonBody for Node's own request object (the HTTP face's POSTs to a session): no web stream in between. */
export function readNodeJsonBody(incoming: IncomingMessage, maxBytes: number): Promise<BodyResult> {
  const tooLarge = { ok: false as const, status: 413 as const, code: -32600, message: `Payload Too Large: a request body here may be at most ${maxBytes} bytes (switchboard.limits).` };
  const declared = Number(incoming.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    incoming.resume(); // drained unread, so the connection stays usable
    return Promise.resolve(tooLarge);
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const onData = (chunk: Buffer) => {
      received += chunk.byteLength;
      if (received > maxBytes) {
        incoming.off('data', onData);
        incoming.resume();
        resolve(tooLarge);
        return;
      }
      chunks.push(chunk);
    };
    incoming.on('data', onData);
    incoming.once('error', () => resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: the body could not be read' }));
    incoming.once('end', () => {
      if (received > maxBytes) return;
      const text = chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks, received).toString('utf8');
      try {
        resolve({ ok: true, body: JSON.parse(text), bytes: received });
      } catch {
        resolve({ ok: false, status: 400, code: -32700, message: 'Parse error: the body is not valid JSON' });
      }
    });
  });
}
