// Owns picking the loader of a word-vector file by its content: the wink-embeddings JSON (benchmark
// source) or the compact int8 file (what users are given).
import { closeSync, openSync, readSync } from 'node:fs';
import { COMPACT_MAGIC, loadCompact } from './compact.js';
import { loadWinkJson, WordVectorError, type WordVectorTable } from './table.js';

export function loadWordVectorFile(file: string): WordVectorTable {
  let head: Buffer;
  try {
    const fd = openSync(file, 'r');
    head = Buffer.alloc(8);
    readSync(fd, head, 0, 8, 0);
    closeSync(fd);
  } catch (error) {
    throw new WordVectorError(`cannot read the word vectors at ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (head.toString('latin1') === COMPACT_MAGIC) return loadCompact(file);
  if (head.toString('latin1').trimStart().startsWith('{')) return loadWinkJson(file);
  throw new WordVectorError(`${file}: not a word-vector file (expected a compact file from bench/build-word-vectors.mjs or the wink-embeddings JSON)`);
}
