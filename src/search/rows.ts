// Owns turning one tool into index rows: its distinct terms, each with a frequency per field
// (name, server, description, params, enums, learned, serverInfo), and the field lengths. Scratch space is
// indexed by term id and reused from tool to tool, so collecting a tool allocates only its result.
// Optional phrases (adjacent terms of the name and description) are collected as extra terms, and
// optionally the words of a name written as one run ("exportchat") as extra name terms.
import { FIELD_COUNT, FIELDS, LEARNED, fieldTexts, type ToolDoc } from './document.js';
import { joinedNameParts } from './joined-words.js';
import { isPhrase, phraseTerm } from './query.js';
import { intern, internedCount, scanTerms, termOf, type Term } from './tokenize.js';

const PHRASE_FIELDS = new Set([FIELDS.indexOf('name'), FIELDS.indexOf('description')]);
const SERVER_INFO = FIELDS.indexOf('serverInfo');
const NAME = FIELDS.indexOf('name');

export interface Rows {
  terms: Term[];
  tfs: Float64Array; // terms.length x FIELD_COUNT
  lengths: Float64Array; // per field
  nameRows: Int32Array; // rows of the words of the tool's name (phrases excluded)
}

const descriptionTerms = new Map<string, Term[]>();

/** Terms of a server description, remembered for the next tool of the same server (bounded). */
function serverDescriptionTerms(text: string): Term[] {
  let ts = descriptionTerms.get(text);
  if (ts === undefined) {
    const found: Term[] = [];
    scanTerms(text, (t) => found.push(t));
    if (descriptionTerms.size >= 4096) descriptionTerms.clear();
    descriptionTerms.set(text, (ts = found));
  }
  return ts;
}

export class RowCollector {
  // Per term id: the collection that saw the term last, and its row in `tfs`.
  private gen = 0;
  private seenIn = new Int32Array(0);
  private rowOf = new Int32Array(0);
  private tfs = new Float64Array(64 * FIELD_COUNT);
  private terms: Term[] = [];

  constructor(
    private readonly phrases: boolean,
    private readonly splitJoinedNames = false,
  ) {}

  /** The rows of `doc`, with `learned` (term -> frequency) as its learned field. */
  collect(doc: ToolDoc, learned: ReadonlyMap<string, number>): Rows {
    this.gen++;
    this.terms = [];
    if (this.seenIn.length < internedCount() + 1024) this.grow(internedCount() + 1024);
    const lengths = new Float64Array(FIELD_COUNT);
    const texts = fieldTexts(doc, false);
    for (let f = 0; f < FIELD_COUNT; f++) {
      if (!texts[f]) continue;
      let count = 0;
      const phrases = this.phrases && PHRASE_FIELDS.has(f);
      let prev: Term | null = null;
      scanTerms(texts[f]!, (t) => {
        this.bump(t, f, 1);
        if (phrases && prev !== null) this.bump(phraseTerm(prev, t), f, 1);
        prev = t;
        count++;
      });
      lengths[f] = count;
    }
    if (this.splitJoinedNames) {
      for (const part of joinedNameParts(texts[NAME]!, `${texts[FIELDS.indexOf('description')]!} ${texts[FIELDS.indexOf('params')]!}`)) {
        const t = termOf(part);
        if (t === null) continue;
        this.bump(t, NAME, 1);
        lengths[NAME]!++;
      }
    }
    if (doc.serverDescription) {
      // Every tool of a server carries the same description: its terms are worked out once.
      const ts = serverDescriptionTerms(doc.serverDescription);
      for (const t of ts) this.bump(t, SERVER_INFO, 1);
      lengths[SERVER_INFO]! += ts.length;
    }
    for (const [t, w] of learned) {
      this.bump(intern(t), LEARNED, w);
      lengths[LEARNED]! += w;
    }
    const terms = this.terms;
    const tfs = this.tfs.slice(0, terms.length * FIELD_COUNT);
    const nameRows: number[] = [];
    for (let k = 0; k < terms.length; k++) if (tfs[k * FIELD_COUNT + NAME] !== 0 && !isPhrase(terms[k]!.text)) nameRows.push(k);
    return { terms, tfs, lengths, nameRows: Int32Array.from(nameRows) };
  }

  /** Counts `tf` more of term `t` in field `f` (a new row on first sight). */
  private bump(t: Term, f: number, tf: number): void {
    if (t.id >= this.seenIn.length) this.grow(t.id * 2);
    let row: number;
    if (this.seenIn[t.id] === this.gen) {
      row = this.rowOf[t.id]!;
    } else {
      row = this.terms.length;
      this.terms.push(t);
      this.seenIn[t.id] = this.gen;
      this.rowOf[t.id] = row;
      if ((row + 1) * FIELD_COUNT > this.tfs.length) {
        const grown = new Float64Array(this.tfs.length * 2);
        grown.set(this.tfs);
        this.tfs = grown;
      }
      this.tfs.fill(0, row * FIELD_COUNT, (row + 1) * FIELD_COUNT);
    }
    this.tfs[row * FIELD_COUNT + f]! += tf;
  }

  private grow(size: number): void {
    const seenIn = new Int32Array(size);
    seenIn.set(this.seenIn);
    const rowOf = new Int32Array(size);
    rowOf.set(this.rowOf);
    this.seenIn = seenIn;
    this.rowOf = rowOf;
  }
}
