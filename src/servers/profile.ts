// Owns capability profiles: the subset of a client's capabilities that changes what a downstream
// server offers (sampling, elicitation, roots). One downstream connection exists per profile, so a
// server sees exactly what the client can do and never more. A profile that lets a server send the
// client requests (any mirrored capability) belongs to one client session: its key carries the
// session's id, so no two sessions ever share such a connection (see docs/security.md, "Isolation
// between clients"). Only the bare profile (none of them) is shared.
import { createHash } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';

export interface CapabilityProfile {
  /** Stable key: canonical JSON of the mirrored capabilities ('{}' for a client with none). */
  key: string;
  /** Short human label: the mirrored capability names ('' for none), e.g. "elicitation+sampling". */
  label?: string;
  capabilities: ClientCapabilities;
  /** The one session this profile (and every connection made for it) belongs to; unset when shared. */
  owner?: string;
}

const MIRRORED = ['sampling', 'elicitation', 'roots'] as const;

/** JSON with object keys sorted at every depth: equal for values that differ only in key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * The profile for a client's capabilities. With any mirrored capability the server may send that
 * client requests, so the profile is the session's own (`owner`); without one it is shared.
 */
export function profileOf(clientCapabilities: ClientCapabilities | undefined, owner: string | undefined): CapabilityProfile {
  const capabilities: Record<string, unknown> = {};
  for (const name of MIRRORED) {
    const value = clientCapabilities?.[name];
    if (value !== undefined) capabilities[name] = value;
  }
  const key = canonicalJson(capabilities);
  const names = Object.keys(capabilities).sort().join('+');
  // Two clients may declare the same capabilities with different details: keep labels distinct.
  const label = names === '' ? '' : key === canonicalJson(Object.fromEntries(Object.keys(capabilities).map((n) => [n, {}]))) ? names : `${names} ${shortDigest(key)}`;
  if (names !== '' && owner !== undefined) return { key: `${key}@${owner}`, label, capabilities: capabilities as ClientCapabilities, owner };
  return { key, label, capabilities: capabilities as ClientCapabilities };
}

/** The profile used when no client is involved (CLI commands, the catalog at boot). */
export const BARE_PROFILE: CapabilityProfile = profileOf(undefined, undefined);

/** Which reverse request (server → client) needs which client capability. */
export const REVERSE_METHOD_CAPABILITY: Record<string, keyof ClientCapabilities> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

function shortDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}
