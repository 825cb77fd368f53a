// Owns what counts as a usable JSON-RPC request id (a string, or a finite number): the faces key
// requests in progress, cancellations and answers by it.
export type RequestId = string | number;

export function isRequestId(id: unknown): id is RequestId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}
