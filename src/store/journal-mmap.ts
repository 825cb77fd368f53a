// Owns loading the call journal's native addon (native/journal-mmap): memory-mapped journal files,
// so appending a call is a copy into shared file pages instead of a write(2). Built at install time
// where a C compiler is present (scripts/build-native.mjs); when it is missing, fails to load, or
// SWITCHBOARD_CALL_JOURNAL=write asks for it, the journal appends with write(2) and says why.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface JournalMapper {
  /** Reserves `bytes` of zero-filled space for the open file `fd` and maps all of it, shared and writable. */
  map(fd: number, bytes: number): ArrayBuffer;
  /** Detaches a buffer `map` returned (its views become empty); the pages go when V8 frees it. */
  unmap(buffer: ArrayBuffer): void;
}

export type JournalMapping = { mapper: JournalMapper } | { mapper?: undefined; reason: string };

/** Where the addon is built: native/journal-mmap/build/Release/, two folders up from src/store or dist/store. */
export const ADDON_PATH = fileURLToPath(new URL('../../native/journal-mmap/build/Release/journal_mmap.node', import.meta.url));

let loaded: JournalMapping | undefined;

/** The addon, or why the journal appends with write(2) instead (loaded once per process). */
export function journalMapping(): JournalMapping {
  if (loaded) return loaded;
  loaded = load();
  return loaded;
}

function load(): JournalMapping {
  const asked = process.env.SWITCHBOARD_CALL_JOURNAL;
  if (asked === 'write') return { reason: 'SWITCHBOARD_CALL_JOURNAL=write' };
  if (asked !== undefined && asked !== '' && asked !== 'mmap') return { reason: `SWITCHBOARD_CALL_JOURNAL=${asked} is not "mmap" or "write"` };
  if (process.platform !== 'linux') return { reason: `memory-mapped journals are built for Linux only (this is ${process.platform})` };
  if (!existsSync(ADDON_PATH)) return { reason: `the native addon was not built (${ADDON_PATH} is missing; run "npm run build:native" with a C compiler installed)` };
  try {
    const addon = createRequire(import.meta.url)(ADDON_PATH) as JournalMapper;
    if (typeof addon.map !== 'function' || typeof addon.unmap !== 'function') return { reason: `${ADDON_PATH} is not the journal addon` };
    return { mapper: addon };
  } catch (error) {
    return { reason: `the native addon did not load: ${(error as Error).message}` };
  }
}
