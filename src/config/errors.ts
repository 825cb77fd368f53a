// Owns ConfigError (the one error type config problems surface as) and the path notation used in its messages.

/** Where a config problem is: the file, and when known the server key and the field inside it. */
export interface ConfigErrorLocation {
  file: string;
  serverKey?: string;
  field?: string;
}

/**
 * A problem with the user's configuration. The message names the file, server and field, e.g.
 * `examples/x.json: server "github": field "url": must be a valid URL` (unknown parts are left out).
 */
export class ConfigError extends Error {
  readonly file: string;
  readonly serverKey?: string;
  readonly field?: string;
  /** The problem alone, without the location prefix. */
  readonly reason: string;

  constructor(reason: string, where: ConfigErrorLocation, options?: ErrorOptions) {
    super(formatConfigMessage(reason, where), options);
    this.name = 'ConfigError';
    this.reason = reason;
    this.file = where.file;
    if (where.serverKey !== undefined) this.serverKey = where.serverKey;
    if (where.field !== undefined) this.field = where.field;
  }

  /** A copy with the parts of the location this error does not know yet filled in from `where`. */
  withLocation(where: Partial<ConfigErrorLocation>): ConfigError {
    return new ConfigError(
      this.reason,
      {
        file: this.file || where.file || '',
        serverKey: this.serverKey ?? where.serverKey,
        field: this.field ?? where.field,
      },
      { cause: this.cause },
    );
  }
}

function formatConfigMessage(reason: string, where: ConfigErrorLocation): string {
  const parts: string[] = [];
  if (where.file) parts.push(where.file);
  if (where.serverKey !== undefined) parts.push(`server ${JSON.stringify(where.serverKey)}`);
  if (where.field) parts.push(`field ${JSON.stringify(where.field)}`);
  parts.push(reason);
  return parts.join(': ');
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** Appends one segment to a field path: `args` + 2 → `args[2]`, `env` + `TOKEN` → `env.TOKEN`. */
export function appendPath(base: string, segment: PropertyKey): string {
  if (typeof segment === 'number') return `${base}[${segment}]`;
  const key = String(segment);
  if (PLAIN_KEY.test(key)) return base ? `${base}.${key}` : key;
  return `${base}[${JSON.stringify(key)}]`;
}

/** Formats a whole path (as zod reports it) the same way; an empty path gives ''. */
export function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((acc, seg) => appendPath(acc, seg), '');
}
