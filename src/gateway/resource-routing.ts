// Owns which server a session's resource request or completion goes to: the server that lists a URI
// (or a template matching it), the only resource server when there is one, a prompt's server for a
// prompt completion; a server still starting (left out of a bounded listing) is waited for before
// anything is called unknown; checked against the client's scope, with errors that say what to list.
import { ProtocolError } from '@modelcontextprotocol/server';
import type { Catalog } from '../catalog/catalog.js';
import type { CapabilityProfile } from '../servers/profile.js';
import type { ClientScope } from '../views/scope.js';
import type { SessionServices } from './ports.js';
import type { View } from './view.js';

type Params = Record<string, unknown>;

/** What routing needs from the session it answers for. */
export interface RoutingSession {
  readonly view: View;
  readonly scope: ClientScope | undefined;
  readonly profile: CapabilityProfile;
  readonly services: Pick<SessionServices<never>, 'catalogs' | 'servers'>;
  catalog(): Promise<Catalog>;
}

/** The server that serves a resource URI in the session's view. */
export async function ownerOfUri(session: RoutingSession, uri: unknown): Promise<string> {
  if (typeof uri !== 'string') throw new ProtocolError(-32602, `Invalid params: "uri" must be a string`);
  if (session.view.kind === 'server') return session.view.server;
  const catalog = await session.catalog();
  const owner = catalog.resourceOwner(uri) ?? (await catalog.lookupWhenListed(() => catalog.resourceOwner(uri))) ?? soleResourceServer(session);
  if (!owner) {
    throw new ProtocolError(-32602, `Resource not found: no server lists "${uri}" or a template matching it. List resources and resource templates to see what is available.`, { uri });
  }
  if (session.scope && !session.scope.allowsServer(owner)) throw new ProtocolError(-32602, session.scope.refusal(`resource "${uri}"`), { uri, forbidden: true });
  return owner;
}

/** Where a completion/complete goes, and its params as that server knows the prompt (its original name). */
export async function completionTarget(session: RoutingSession, params: Params): Promise<{ server: string; params: Params }> {
  const ref = (params.ref ?? {}) as Params;
  if (session.view.kind === 'server') return { server: session.view.server, params };
  const scope = session.scope;
  if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
    const catalog = await session.catalog();
    const entry = catalog.promptTable.resolve(ref.name) ?? (await catalog.resolveLate('prompts', ref.name));
    if (!entry) throw new ProtocolError(-32602, `Unknown prompt: "${ref.name}"`, { name: ref.name });
    if (scope && !scope.allowsServer(entry.serverKey)) throw new ProtocolError(-32602, scope.refusal(`prompt "${ref.name}"`), { name: ref.name, forbidden: true });
    return { server: entry.serverKey, params: { ...params, ref: { ...ref, name: entry.originalName } } };
  }
  if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
    const catalog = await session.catalog();
    const uri = ref.uri;
    const find = () => catalog.templateOwner(uri) ?? catalog.resourceOwner(uri);
    const owner = find() ?? (await catalog.lookupWhenListed(find)) ?? soleResourceServer(session);
    if (!owner) throw new ProtocolError(-32602, `Unknown resource template: "${ref.uri}"`, { uri: ref.uri });
    if (scope && !scope.allowsServer(owner)) throw new ProtocolError(-32602, scope.refusal(`resource "${ref.uri}"`), { uri: ref.uri, forbidden: true });
    return { server: owner, params };
  }
  throw new ProtocolError(-32602, 'Invalid params: completion/complete needs ref.type "ref/prompt" with a name or "ref/resource" with a uri');
}

/** With exactly one resource server configured, an unlisted URI can only be meant for it. */
function soleResourceServer(session: RoutingSession): string | undefined {
  const catalog = session.services.catalogs.catalogFor(session.profile);
  const candidates = session.services.servers.keys().filter((key) => {
    const listing = catalog.listing(key);
    return listing.resources.length > 0 || listing.resourceTemplates.length > 0;
  });
  return candidates.length === 1 ? candidates[0] : undefined;
}
