// Owns the shape of one indexed tool (its terms, per-field frequencies and posting positions), shared by
// the index (index.ts) and the query scan (scan.ts) without either importing the other.
import type { ToolDoc } from './document.js';
import type { PostingList } from './postings.js';
import type { Term } from './tokenize.js';

/** One indexed tool: its distinct terms with per-field frequencies and where each posting sits. */
export interface Entry {
  doc: ToolDoc;
  seq: number;
  slot: number;
  server: number;
  lengths: Float64Array;
  terms: Term[];
  lists: PostingList[];
  tfs: Float64Array; // terms.length x FIELD_COUNT
  nameRows: Int32Array; // rows of the name's words
  at: Int32Array; // position of each term's posting in its list
  norm: Float64Array; // per field: w / (1 - b + b * len / avglen), valid under normStamp
  normStamp: number;
}
