// Owns StoreError: the one error type the store raises, with a machine-readable code and a message that says what to do.

export type StoreErrorCode =
  /** The data dir or the database file cannot be created or opened. */
  | 'open_failed'
  /** The file exists but is not a SQLite database (or is damaged). */
  | 'not_a_database'
  /** The file was written by a newer Switchboard whose schema this code does not know. */
  | 'newer_schema'
  /** A migration failed; its transaction was rolled back and the file is as it was before. */
  | 'migration_failed'
  /** A caller passed a value the store cannot record (the message names the field). */
  | 'invalid_input';

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  /** The database file (or data dir) concerned, when known. */
  readonly path?: string;

  constructor(code: StoreErrorCode, message: string, options?: ErrorOptions & { path?: string }) {
    super(message, options);
    this.name = 'StoreError';
    this.code = code;
    if (options?.path !== undefined) this.path = options.path;
  }
}

/** The message of an unknown thrown value, for wrapping it. */
export function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
