// Owns taking secrets out of text before it is logged or shown: URL credentials (user:password@),
// URL query values whose key looks like a secret (api_key, token, ...), and known secret values
// (a server's configured env and header values) wherever they appear.

export const REDACTED = '***';

/** Query keys whose values are secrets (matched case-insensitively, `-` and `_` alike). */
const SECRET_KEY = /(?:api[-_]?key|apikey|access[-_]?token|auth[-_]?token|token|secret|password|passwd|pwd|key|signature|sig|credential|session)/i;

/** `scheme://user:password@` and `scheme://token@` in any text. */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^\s/@:]+)(?::([^\s/@]*))?@/gi;
/** `?name=value` / `&name=value` in any text. */
const QUERY_PAIR = /([?&;])([A-Za-z0-9_.-]+)=([^&#\s"'<>:]*)/g;

/** Removes URL credentials and secret-looking query values from a text (URLs inside error messages too). */
export function redactUrls(text: string): string {
  return text
    .replace(USERINFO, (_m, scheme: string) => `${scheme}${REDACTED}@`)
    .replace(QUERY_PAIR, (match, sep: string, key: string, value: string) => (value && SECRET_KEY.test(key) ? `${sep}${key}=${REDACTED}` : match));
}

/** Shortest secret value replaced verbatim (shorter values are too likely to be ordinary words). */
const MIN_SECRET_LENGTH = 6;

/** A function that redacts `values` (and secret-looking URL parts) from any text. */
export function redactorFor(values: Iterable<string>): (text: string) => string {
  const secrets = [...new Set([...values].filter((v) => v.length >= MIN_SECRET_LENGTH))].sort((a, b) => b.length - a.length);
  return (text: string) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return redactUrls(out);
  };
}
