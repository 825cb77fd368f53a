// Owns what counts as a usable JSON-RPC request id (a string, or an integer, the SDK's own rule): the
// faces key requests in progress, cancellations and answers by it, and a lane takes only what the
// SDK path would accept.
export type RequestId = string | number;

export function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

/** The id to answer a message by when it cannot be served (malformed, no session): a string or any finite number, as the client sent it; else null. */
export function answerableId(id: unknown): RequestId | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
