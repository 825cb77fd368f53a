// Owns taking secrets out of what is logged or shown: tool arguments (values under keys that name a
// secret, at any depth), URL credentials (user:password@), URL query values whose key looks like a
// secret (api_key, token, ...), and known secret values (a server's configured env and header values)
// wherever they appear in a text.

/** What a secret value under a secret-named argument key becomes. */
export const REDACTED = '[redacted]';
/** What a secret inside a text (URL, error message) becomes. */
export const REDACTED_TEXT = '***';

const SECRET_ARGUMENT_KEY = /(^|[-_])(pass|pwd)$|passw(or)?d|passphrase|secret|token(?!s)|api[-_]?key|^auth$|authori[sz]ation|authentication|credential|cookie|session[-_]?id|private[-_]?key|signature|bearer|access[-_]?key/i;

/** True when an argument key's name says its value is a secret. */
export function isSecretKey(key: string): boolean {
  return SECRET_ARGUMENT_KEY.test(key);
}

/** A copy of `value` with every secret-named key's value replaced by "[redacted]" (circular-safe). */
export function redactSecrets(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, seen));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = isSecretKey(key) ? REDACTED : redactSecrets(item, seen);
  return out;
}

/** Query keys whose values are secrets (matched case-insensitively, `-` and `_` alike). */
const SECRET_QUERY_KEY = /(?:api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|secret|password|passwd|pwd|key|signature|sig|credential|session)/i;

/** `scheme://user:password@` and `scheme://token@` in any text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]+)(?::([^\s/@]*))?@/gi;
/** `?name=value` / `&name=value` in any text. */
const QUERY_PAIR = /([?&;])([A-Za-z0-9_.-]+)=([^&#\s"'<>:]*)/g;

/** Removes URL credentials and secret-looking query values from a text (URLs inside error messages too). */
export function redactUrls(text: string): string {
  return text
    .replace(USERINFO, (_m, scheme: string) => `${scheme}${REDACTED_TEXT}@`)
    .replace(QUERY_PAIR, (match, sep: string, key: string, value: string) => (value && SECRET_QUERY_KEY.test(key) ? `${sep}${key}=${REDACTED_TEXT}` : match));
}

/** Shortest secret value replaced verbatim (shorter values are too likely to be ordinary words). */
const MIN_SECRET_LENGTH = 6;

/** A function that redacts `values` (and secret-looking URL parts) from any text. */
export function redactorFor(values: Iterable<string>): (text: string) => string {
  const secrets = [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED_TEXT);
    return redactUrls(out);
  };
}
