// Owns the ids of the requests in progress on one HTTP session. A client that sends a request with
// an id still in use by another of its requests (which MCP forbids) gets -32600 at once: the SDK's
// transport maps each id to the stream that answers it, so a second request with the same id took
// over the first one's answer and the first POST waited for ever (found by the fuzz test).
// An id is in use exactly as long as the transport keeps it mapped: until the session sends its
// answer (answered()), or until the client cancels it (notifications/cancelled: no answer follows).
type Id = string | number;

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
      if (isId(cancelledId)) cancelled.push(cancelledId);
    } else if (isId(id)) requests.push(id);
  }
  return { requests, cancelled };
}

function isId(id: unknown): id is Id {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
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

  /** The session sent the answer to this id: the transport has let it go, so it is free again. */
  answered(id: Id): void {
    this.inProgress.delete(keyOf(id));
  }

  get size(): number {
    return this.inProgress.size;
  }
}
