// Owns typo and prefix lookup over the index vocabulary (the set of terms with at least one
// posting; the index adds a term when its posting list is created and deletes it when the list
// empties). Typos: a symmetric-delete table (SymSpell) finds every vocabulary term within one edit
// (insert, delete, substitute, adjacent swap) with a handful of hash lookups instead of a scan.
// Prefixes: a sorted term list, rebuilt lazily after the vocabulary changed, searched by binary
// search. `version` changes with every change, so callers can cache lookups.

const MAX_FUZZY_LENGTH = 24;

function deletes(term: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < term.length; i++) out.push(term.slice(0, i) + term.slice(i + 1));
  return out;
}

/** Damerau distance capped at 2 (enough to confirm a candidate is within 1). */
function withinOneEdit(a: string, b: string): boolean {
  if (a === b) return true;
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) return false;
  let i = 0;
  while (i < la && i < lb && a[i] === b[i]) i++;
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export class Vocabulary {
  private readonly terms = new Set<string>();
  private readonly deleteTable = new Map<string, Set<string>>();
  private sorted: string[] | null = null;
  /** Bumped on every change (for caches of fuzzy and prefix lookups). */
  version = 0;

  get size(): number {
    return this.terms.size;
  }

  has(term: string): boolean {
    return this.terms.has(term);
  }

  /** A term now has postings. */
  add(term: string): void {
    if (this.terms.has(term)) return;
    this.terms.add(term);
    this.sorted = null;
    this.version++;
    if (term.length < 4 || term.length > MAX_FUZZY_LENGTH) return;
    for (const d of deletes(term)) {
      let set = this.deleteTable.get(d);
      if (!set) this.deleteTable.set(d, (set = new Set()));
      set.add(term);
    }
  }

  /** A term has no postings any more. */
  delete(term: string): void {
    if (!this.terms.delete(term)) return;
    this.sorted = null;
    this.version++;
    if (term.length < 4 || term.length > MAX_FUZZY_LENGTH) return;
    for (const d of deletes(term)) {
      const set = this.deleteTable.get(d);
      if (!set) continue;
      set.delete(term);
      if (set.size === 0) this.deleteTable.delete(d);
    }
  }

  /**
   * Vocabulary terms near `term` (not `term` itself) with their distance: 1 for one edit (insert,
   * delete, substitute, adjacent swap), 2 for two edits that share a deleted letter ("crate" vs the
   * stem "creat" of "create"). Terms under 4 letters get none.
   */
  fuzzy(term: string): Array<[string, 1 | 2]> {
    if (term.length < 4 || term.length > MAX_FUZZY_LENGTH) return [];
    const found = new Map<string, 1 | 2>();
    const consider = (candidates: Set<string> | undefined) => {
      if (!candidates) return;
      for (const c of candidates) {
        if (c === term || found.get(c) === 1) continue;
        found.set(c, withinOneEdit(term, c) ? 1 : 2);
      }
    };
    consider(this.deleteTable.get(term)); // term = candidate minus one letter
    for (const d of deletes(term)) {
      if (this.terms.has(d) && d.length >= 4) found.set(d, 1); // candidate = term minus one letter
      consider(this.deleteTable.get(d)); // substitution, swap, or two edits
    }
    return [...found];
  }

  /** Up to `limit` vocabulary terms that start with `prefix` and are longer than it. */
  completions(prefix: string, limit: number): string[] {
    if (!this.sorted) this.sorted = [...this.terms].sort();
    const list = this.sorted;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (list[mid]! < prefix) lo = mid + 1;
      else hi = mid;
    }
    const out: string[] = [];
    for (let i = lo; i < list.length && out.length < limit && list[i]!.startsWith(prefix); i++) {
      if (list[i] !== prefix) out.push(list[i]!);
    }
    return out;
  }
}
