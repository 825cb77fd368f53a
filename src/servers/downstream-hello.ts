// Owns what the gateway says in a 2025-era `initialize` to a downstream server: its client info, the
// protocol version it offers (the SDK client's first pre-2026 version), and the client capabilities
// of the connection's profile. One definition for the connection's SDK client (dial.ts) and for the
// early handshake of a server `serve` started before the gateway loaded (prestart.ts), which has to
// send exactly what the connection would (test/servers/downstream-hello.test.ts checks it against
// what the SDK client really sends). Light on purpose: it runs before the SDK and zod are loaded.
import { VERSION } from '../config/version.js';
import { canonicalJson, profileOf } from './profile.js';

/** Who the gateway says it is to a downstream server. */
export const GATEWAY_CLIENT_INFO = Object.freeze({ name: 'switchboard', version: VERSION });

/**
 * The ids of the early handshake's requests (early-handshake.ts), by which the adopting transport
 * knows their answers (adopted-transport.ts). The SDK client numbers its own, so a string never collides.
 */
export const EARLY_INITIALIZE_ID = 'switchboard-early-initialize';
export const EARLY_TOOLS_LIST_ID = 'switchboard-early-tools-list';

/** The protocol version the SDK client offers in `initialize` (the newest of the 2025 era). */
export const OFFERED_PROTOCOL_VERSION = '2025-11-25';

/** The params of the `initialize` a connection with these (already mirrored) client capabilities sends. */
export interface DownstreamInitializeParams {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo: { name: string; version: string };
}

export function downstreamInitializeParams(capabilities: Record<string, unknown>): DownstreamInitializeParams {
  return { protocolVersion: OFFERED_PROTOCOL_VERSION, capabilities, clientInfo: { ...GATEWAY_CLIENT_INFO } };
}

/** Whether two `initialize` params say the same (key order aside). */
export function sameInitializeParams(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The capabilities a connection's `initialize` carries for a stdio client whose first line is `line`,
 * as the gateway will have them once the SDK server has parsed that client's `initialize` (its
 * schema keeps only `context` and `tools` of sampling and `listChanged` of roots, and reads an empty
 * elicitation as form elicitation); undefined when the line is no 2025-era `initialize` this can
 * read for sure (then nothing is sent early).
 */
export function capabilitiesForClientLine(line: string): Json | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== '2.0' || message.method !== 'initialize' || !('id' in message)) return undefined;
  const params = message.params;
  if (!isObject(params) || typeof params.protocolVersion !== 'string' || !isObject(params.capabilities)) return undefined;
  const { sampling, elicitation, roots } = params.capabilities;
  const seen: Json = {};
  if (sampling !== undefined) {
    if (!isObject(sampling) || !optionalObjects(sampling, ['context', 'tools'])) return undefined;
    seen.sampling = pick(sampling, ['context', 'tools']);
  }
  if (elicitation !== undefined) {
    if (!isObject(elicitation) || !optionalObjects(elicitation, ['form', 'url'])) return undefined;
    seen.elicitation = Object.keys(elicitation).length === 0 ? { form: {} } : elicitation;
  }
  if (roots !== undefined) {
    if (!isObject(roots) || (roots.listChanged !== undefined && typeof roots.listChanged !== 'boolean')) return undefined;
    seen.roots = pick(roots, ['listChanged']);
  }
  return profileOf(seen, undefined).capabilities as Json;
}

function optionalObjects(value: Json, keys: string[]): boolean {
  return keys.every((key) => value[key] === undefined || isObject(value[key]));
}

function pick(value: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]]));
}
