// Owns one term's posting list as parallel, growable typed arrays: the tool slot, the position of
// the term inside that tool's own term list (the back-pointer that makes removal O(1)), and the
// cached saturated BM25F weight. No object per posting: a 10,000-tool index holds about a million
// postings, and flat arrays keep both the query scan and the garbage collector cheap.

export class PostingList {
  slots: Int32Array;
  refs: Int32Array;
  sats: Float64Array;
  len = 0;
  /** Index stamp the cached weights were computed under (the index recomputes stale lists). */
  stamp: number;
  /** Upper bound of `sats` (exact after a recompute; may be loose after removals). */
  maxSat = 0;

  constructor(
    /** Id of the list's term (tokenize.ts Term). */
    readonly term: number,
    stamp: number,
    capacity = 4,
  ) {
    this.stamp = stamp;
    this.slots = new Int32Array(capacity);
    this.refs = new Int32Array(capacity);
    this.sats = new Float64Array(capacity);
  }

  /** Appends a posting; returns its position. */
  push(slot: number, ref: number, sat: number): number {
    if (this.len === this.slots.length) this.grow();
    const at = this.len++;
    this.slots[at] = slot;
    this.refs[at] = ref;
    this.sats[at] = sat;
    if (sat > this.maxSat) this.maxSat = sat;
    return at;
  }

  /**
   * Removes the posting at `at` by moving the last one into its place. Returns the moved posting's
   * position in the list before the move (so the owner can fix its back-pointer), or -1 when the
   * removed posting was the last.
   */
  removeAt(at: number): number {
    const last = --this.len;
    if (at === last) return -1;
    this.slots[at] = this.slots[last]!;
    this.refs[at] = this.refs[last]!;
    this.sats[at] = this.sats[last]!;
    return last;
  }

  private grow(): void {
    const size = this.slots.length * 2;
    const slots = new Int32Array(size);
    slots.set(this.slots);
    const refs = new Int32Array(size);
    refs.set(this.refs);
    const sats = new Float64Array(size);
    sats.set(this.sats);
    this.slots = slots;
    this.refs = refs;
    this.sats = sats;
  }
}
