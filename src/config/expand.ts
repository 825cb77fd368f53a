// Owns environment-variable expansion in config strings: ${VAR}, ${VAR:-default} and VS Code's ${env:VAR}.
import { ConfigError, appendPath } from './errors.js';

// ${NAME}, ${NAME:-default} (default may be empty, cannot contain "}"), ${env:NAME}, ${input:id}
const REFERENCE = /\$\{(?:(env:|input:)?([A-Za-z_][A-Za-z0-9_]*)|(input:)([^}]*))(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in `value`. A default applies when the variable is unset or
 * empty (as in POSIX shells). `$` not followed by a reference is left alone, and so is any `${...}`
 * that is not a reference (e.g. shell code such as `${1}`). An unset variable without a default throws
 * a ConfigError whose field is `where`.
 */
export function expandEnv(value: string, env: NodeJS.ProcessEnv, where: string): string {
  if (!value.includes('${')) return value;
  return value.replace(REFERENCE, (whole, prefix: string | undefined, name: string | undefined, inputPrefix: string | undefined, inputId: string | undefined, fallback: string | undefined) => {
    if (prefix === 'input:' || inputPrefix !== undefined) {
      throw new ConfigError(
        `${whole} is a VS Code input variable, which Switchboard cannot prompt for; ` +
          'put the value in an environment variable and write ${NAME} instead',
        { file: '', field: where },
      );
    }
    const current = env[name!];
    if (fallback !== undefined) return current ? current : fallback;
    if (current !== undefined) return current;
    throw new UnsetVariableError(name!, where);
  });
}

/** A `${VAR}` without a default whose variable is not set; the loader skips that one server entry. */
export class UnsetVariableError extends ConfigError {
  constructor(
    readonly variable: string,
    readonly where: string,
  ) {
    super(`environment variable ${JSON.stringify(variable)} is not set (set it, or give a default: \${${variable}:-value})`, { file: '', field: where });
  }
}

/**
 * Returns a copy of a plain JSON value with every string (not object keys) expanded by expandEnv.
 * `where` names the value's field; nested strings report `where[2]`, `where.KEY` and so on.
 */
export function expandEnvDeep<T>(value: T, env: NodeJS.ProcessEnv, where: string): T {
  if (typeof value === 'string') return expandEnv(value, env, where) as T;
  if (Array.isArray(value)) return value.map((item, i) => expandEnvDeep(item, env, appendPath(where, i))) as T;
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      Object.defineProperty(out, key, {
        value: expandEnvDeep(item, env, appendPath(where, key)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out as T;
  }
  return value;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
