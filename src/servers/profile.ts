// Owns capability profiles: the subset of a client's capabilities that changes what a downstream
// server offers (sampling, elicitation, roots). One downstream connection exists per profile, so a
// server sees exactly what the client can do and never more.
import { createHash } from 'node:crypto';
import type { ClientCapabilities } from '@modelcontextprotocol/server';

export interface CapabilityProfile {
  /** Stable key: canonical JSON of the mirrored capabilities ('{}' for a client with none). */
  key: string;
  /** Short human label: the mirrored capability names ('' for none), e.g. "elicitation+sampling". */
  label?: string;
  capabilities: ClientCapabilities;
}

const MIRRORED = ['sampling', 'elicitation', 'roots'] as const;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const keys = Object.keys(value as Record<string, unknown>).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function profileOf(clientCapabilities: ClientCapabilities | undefined): CapabilityProfile {
  const capabilities: Record<string, unknown> = {};
  for (const name of MIRRORED) {
    const value = clientCapabilities?.[name];
    if (value !== undefined) capabilities[name] = value;
  }
  const key = canonical(capabilities);
  const names = Object.keys(capabilities).sort().join('+');
  // Two clients may declare the same capabilities with different details: keep labels distinct.
  const label = names === '' ? '' : key === canonical(Object.fromEntries(Object.keys(capabilities).map((n) => [n, {}]))) ? names : `${names} ${shortDigest(key)}`;
  return { key, label, capabilities: capabilities as ClientCapabilities };
}

/** The profile used when no client is involved (CLI commands, the catalog at boot). */
export const BARE_PROFILE: CapabilityProfile = profileOf(undefined);

/** Which reverse request (server → client) needs which client capability. */
export const REVERSE_METHOD_CAPABILITY: Record<string, keyof ClientCapabilities> = {
  'sampling/createMessage': 'sampling',
  'elicitation/create': 'elicitation',
  'roots/list': 'roots',
};

function shortDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}
