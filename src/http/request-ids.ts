// Owns the ids of the requests in progress on one HTTP session. A client that sends a request with
// an id still in use by another of its requests (which MCP forbids) gets -32600 at once: the SDK's
// transport maps each id to the stream that answers it, so a second request with the same id took
// over the first one's answer and the first POST waited for ever (found by the fuzz test).
// An id is in use exactly as long as the transport keeps it mapped, or the relay lane (call-lane.ts)
// holds it: until the session sends its answer (answered()), or until the client cancels it
// (notifications/cancelled: no answer follows).
import type { Transport } from '@modelcontextprotocol/server';
import { isRequestId, type RequestId as Id } from '../gateway/request-id.js';

const keyOf = (id: Id): string => (typeof id === 'number' ? `n${id}` : `s${id}`);

/** The ids of the requests in a body, and the ids its notifications/cancelled name. */
function idsOf(body: unknown): { requests: Id[]; cancelled: Id[] } {
  const requests: Id[] = [];
  const cancelled: Id[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null) continue;
    const { method, id, params } = message as { method?: unknown; id?: unknown; params?: { requestId?: unknown } };
    if (typeof method !== 'string') continue;
    if (id === undefined && method === 'notifications/cancelled') {
      const cancelledId = params?.requestId;
      if (isRequestId(cancelledId)) cancelled.push(cancelledId);
    } else if (isRequestId(id)) requests.push(id);
  }
  return { requests, cancelled };
}

export class RequestIds {
  private readonly inProgress = new Set<string>();

  /**
   * Claims the ids of the requests in `body`. Returns the refusal to send instead when one of them
   * (or the same id twice in a batch) is in use; else a function that releases them, for a body the
   * transport refused before dispatching it. Ids that a notifications/cancelled in `body` names are
   * released: the session sends no answer for a cancelled request.
   */
  claim(body: unknown): { refusal: Response } | { release: () => void } {
    const { requests, cancelled } = idsOf(body);
    for (const id of cancelled) this.inProgress.delete(keyOf(id));
    const keys = requests.map(keyOf);
    const duplicate = keys.findIndex((key, i) => this.inProgress.has(key) || keys.indexOf(key) !== i);
    if (duplicate !== -1) {
      const id = requests[duplicate]!;
      const message = `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in progress on this session. Use a new id for every request.`;
      return { refusal: Response.json({ jsonrpc: '2.0', id, error: { code: -32600, message } }, { status: 400 }) };
    }
    for (const key of keys) this.inProgress.add(key);
    return { release: () => void keys.forEach((key) => this.inProgress.delete(key)) };
  }

  /**
   * Follows what the session's transport sends: an answer frees its id, as the transport lets the id
   * go when it sends it (the SDK keeps its id map private, so its send is the one place to see this).
   */
  follow(transport: Transport): void {
    const send = transport.send.bind(transport);
    transport.send = async (message, options) => {
      try {
        await send(message, options);
      } finally {
        const { id } = message as { id?: unknown };
        if (!('method' in message) && isRequestId(id)) this.inProgress.delete(keyOf(id));
      }
    };
  }
}
