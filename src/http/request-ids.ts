// Owns the ids of the requests in progress on one HTTP session. A client that sends a request with
// an id still in use by another of its requests (which MCP forbids) gets -32600 at once: the SDK's
// transport maps each id to the stream that answers it, so a second request with the same id took
// over the first one's answer and the first POST waited for ever (found by the fuzz test).
type Id = string | number;

function requestIdsOf(body: unknown): Id[] {
  const ids: Id[] = [];
  for (const message of Array.isArray(body) ? body : [body]) {
    if (typeof message !== 'object' || message === null || typeof (message as { method?: unknown }).method !== 'string') continue;
    const id = (message as { id?: unknown }).id;
    if (typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id))) ids.push(id);
  }
  return ids;
}

export class RequestIds {
  private readonly inProgress = new Set<string>();

  /**
   * Claims the ids of the requests in `body`. Returns the refusal to send instead when one of them
   * (or the same id twice in a batch) is in use; else a function that releases them, to be called
   * when the response has ended.
   */
  claim(body: unknown): { refusal: Response } | { release: () => void } {
    const keys = requestIdsOf(body).map((id) => JSON.stringify(id));
    const duplicate = keys.find((key, i) => this.inProgress.has(key) || keys.indexOf(key) !== i);
    if (duplicate !== undefined) {
      const id = JSON.parse(duplicate) as Id;
      const message = `Invalid Request: id ${duplicate} is already in use by a request in progress on this session. Use a new id for every request.`;
      return { refusal: Response.json({ jsonrpc: '2.0', id, error: { code: -32600, message } }, { status: 400 }) };
    }
    for (const key of keys) this.inProgress.add(key);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        for (const key of keys) this.inProgress.delete(key);
      },
    };
  }

  get size(): number {
    return this.inProgress.size;
  }
}

/** `response` with `done` called once its body has been read to the end, failed or been cancelled (at once without a body). */
export function whenBodyDone(response: Response, done: () => void): Response {
  if (!response.body) {
    done();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else controller.enqueue(chunk.value);
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    cancel(reason) {
      done();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
