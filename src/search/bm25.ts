// Owns the plain BM25 reference ranker of the retrieval README (one field: server, name,
// description, parameter names and descriptions; k1 0.9, b 0.4; lower-cased, split on
// non-alphanumerics and camelCase; no stemming, stop words, synonyms or fuzzy matching). It exists
// to check the benchmark's metric code against the README's reference numbers. Optionally each word
// goes through the engine's stemmer (Porter after the lemma table): the `bm25-stem` engine, which
// shows how much of the engine's gain over plain BM25 is stemming alone.
import type { ToolDoc } from './document.js';
import { stem } from './tokenize.js';

function tokens(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

function paramText(schema: unknown): string {
  const props = (schema as { properties?: Record<string, { description?: unknown }> } | undefined)?.properties;
  if (!props || typeof props !== 'object') return '';
  return Object.entries(props)
    .map(([name, p]) => `${name} ${typeof p?.description === 'string' ? p.description : ''}`)
    .join(' ');
}

export class PlainBm25 {
  private readonly docs: Array<{ doc: ToolDoc; tf: Map<string, number>; len: number }> = [];
  private readonly df = new Map<string, number>();
  private totalLen = 0;

  constructor(
    private readonly k1 = 0.9,
    private readonly b = 0.4,
    private readonly stemmed = false,
  ) {}

  private tokens(text: string): string[] {
    const words = tokens(text);
    return this.stemmed ? words.map(stem) : words;
  }

  add(doc: ToolDoc): void {
    const ts = this.tokens([doc.server, doc.name, doc.description ?? '', paramText(doc.inputSchema)].join(' '));
    const tf = new Map<string, number>();
    for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.docs.push({ doc, tf, len: ts.length });
    this.totalLen += ts.length;
  }

  search(query: string, options: { limit?: number } = {}): Array<{ key: string; server: string; name: string; score: number }> {
    const n = this.docs.length;
    const avg = this.totalLen / n || 1;
    const qs = [...new Set(this.tokens(query))]; // each query word once, as the README's reference run did
    const scored = this.docs.map(({ doc, tf, len }, i) => {
      let s = 0;
      for (const t of qs) {
        const f = tf.get(t);
        if (!f) continue;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        s += (idf * f * (this.k1 + 1)) / (f + this.k1 * (1 - this.b + (this.b * len) / avg));
      }
      return { i, doc, s };
    });
    scored.sort((a, b) => b.s - a.s || a.i - b.i);
    return scored
      .slice(0, options.limit ?? 10)
      .filter((x) => x.s > 0)
      .map(({ doc, s }) => ({ key: doc.key, server: doc.server, name: doc.name, score: s }));
  }
}
