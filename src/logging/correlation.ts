// Owns correlation ids: one per client request, shared by everything that request causes (its
// fallback retry, its progress and cancellation, the sampling or elicitation a server asks for
// while it runs), and carried from a meta-mode tool_discovery to the tool_execute that uses one of
// its results. Ids are attached to the request's context object, never to strings or globals.

/** Process-unique prefix, so ids stay unique across runs in the same store. */
const PREFIX = Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0');
let counter = 0;
/** Where a request context carries its id: a symbol-keyed property (a WeakMap entry per call cost more). */
const CORRELATION = Symbol('switchboard.correlationId');
type Carrier = { [CORRELATION]?: string };
/** Contexts that cannot take a property (frozen ones): kept aside. */
const byFrozenRequest = new WeakMap<object, string>();

/** A new id (`<6 hex>-<base36 counter>`): cheap, unique in this process, unlikely to repeat across runs. */
export function newCorrelationId(): string {
  return `${PREFIX}-${(++counter).toString(36)}`;
}

/** The correlation id of a request context, minted on first use. */
export function correlationOf(request: object): string {
  // The WeakMap first: a context frozen after it got an id keeps any id adopted later there.
  const carried = byFrozenRequest.get(request) ?? (request as Carrier)[CORRELATION];
  if (carried !== undefined) return carried;
  const id = newCorrelationId();
  adoptCorrelation(request, id);
  return id;
}

/** Makes a request context carry an existing id (a tool_execute continuing a tool_discovery). */
export function adoptCorrelation(request: object, id: string): void {
  if (Object.isExtensible(request)) (request as Carrier)[CORRELATION] = id; // symbol-keyed: JSON and Object.keys skip it
  else byFrozenRequest.set(request, id);
}

const DISCOVERIES_KEPT = 256;
const discoveries = new WeakMap<object, Map<string, string>>();

/** Remembers, per session, which discovery showed which toolKeys (the newest discovery wins; bounded). */
export function rememberDiscovery(session: object, toolKeys: Iterable<string>, id: string): void {
  let shown = discoveries.get(session);
  if (!shown) discoveries.set(session, (shown = new Map()));
  for (const key of toolKeys) {
    shown.delete(key);
    shown.set(key, id);
  }
  while (shown.size > DISCOVERIES_KEPT) shown.delete(shown.keys().next().value!);
}

/** The correlation id of the session's latest discovery that showed `toolKey`, if any. */
export function discoveryOf(session: object, toolKey: string): string | undefined {
  return discoveries.get(session)?.get(toolKey);
}
