// Owns the lint of candidate descriptions, run before any evaluation is spent: length, assertive or
// promotional wording, leakage of golden-prompt text, a stated purpose, and an outlier check against a
// character n-gram model of the catalog's own descriptions. Each finding names its rule and the offending text.

export const MAX_DESCRIPTION_CHARS = 280;

export type LintRule = 'length' | 'assertive' | 'leakage' | 'no-purpose' | 'outlier';

export interface LintFinding {
  rule: LintRule;
  message: string;
  /** The offending text (a quote of the candidate, or the whole of it). */
  text: string;
}

export interface LintContext {
  /** Every golden prompt of the tool (both splits): 4+ words copied from one of them is leakage. */
  goldenPrompts: readonly string[];
  /** The catalog's own (canonical) descriptions, for the n-gram outlier check. */
  catalogDescriptions: readonly string[];
  /** Names of the server's other tools: a candidate that talks about them is making claims about other tools. */
  otherTools?: readonly string[];
}

const ASSERTIVE: ReadonlyArray<[RegExp, string]> = [
  [/\balways\b/i, 'absolute instruction'],
  [/\bmust\s+(?:be\s+)?(?:use|used|call|called|choose|chosen|prefer)\w*\b/i, 'instruction to the model'],
  [/\b(?:should|shall)\s+always\b/i, 'instruction to the model'],
  [/\bnever\s+use\b/i, 'instruction to the model'],
  [/\b(?:the\s+)?best\b/i, 'promotional claim'],
  [/\bmost\s+(?:reliable|accurate|powerful|advanced|complete|trusted|popular|efficient)\b/i, 'promotional claim'],
  [/\b(?:superior|unbeatable|guaranteed|perfect|ultimate|world[- ]class|state[- ]of[- ]the[- ]art|revolutionary)\b/i, 'promotional claim'],
  [/\b(?:better|faster|more\s+reliable)\s+than\b/i, 'claim about other tools'],
  [/\b(?:instead\s+of|rather\s+than|unlike)\s+(?:any\s+|all\s+)?(?:other|another|the\s+other)\b/i, 'claim about other tools'],
  [/\b(?:only|preferred|recommended|default)\s+tool\b/i, 'claim about other tools'],
  [/\b(?:important|critical|mandatory)\s*[:!]/i, 'pressure wording'],
  [/!{2,}/, 'pressure wording'],
];

const ACTION_STEMS = [
  'get', 'list', 'creat', 'read', 'writ', 'search', 'find', 'return', 'fetch', 'send', 'updat', 'delet', 'add', 'remov', 'run', 'execut', 'comput',
  'calculat', 'convert', 'generat', 'open', 'clos', 'mov', 'copy', 'copie', 'check', 'validat', 'show', 'display', 'quer', 'retriev', 'set', 'start', 'stop',
  'echo', 'print', 'sum', 'look', 'lookup', 'translat', 'summar', 'analy', 'upload', 'download', 'edit', 'modif', 'renam', 'insert', 'post', 'publish',
  'schedul', 'cancel', 'book', 'track', 'monitor', 'measur', 'count', 'sort', 'filter', 'merg', 'split', 'pars', 'format', 'render', 'draw', 'resiz',
  'compress', 'extract', 'encod', 'decod', 'encrypt', 'decrypt', 'sign', 'verif', 'test', 'launch', 'deploy', 'build', 'instal', 'configur', 'enabl',
  'disabl', 'invit', 'notif', 'message', 'email', 'call', 'pay', 'transfer', 'order', 'buy', 'sell', 'subscrib', 'recommend', 'predict', 'estimat',
  'detect', 'identif', 'classif', 'recogn', 'scan', 'captur', 'record', 'play', 'pause', 'resum', 'log', 'trigger', 'wait', 'sleep', 'tak', 'make',
  'provid', 'giv', 'access', 'manag', 'handl', 'access', 'connect', 'navigat', 'click', 'fill', 'submit', 'select', 'annotat', 'tag', 'label', 'assign',
  'resolv', 'review', 'approv', 'reject', 'archiv', 'restor', 'backup', 'sync', 'import', 'export', 'map', 'rout', 'geocod', 'weather', 'forecast',
];

const WORD = /[a-z0-9]+/g;

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

export function lintCandidate(description: string, context: LintContext): LintFinding[] {
  const findings: LintFinding[] = [];
  if (description.length > MAX_DESCRIPTION_CHARS) {
    findings.push({ rule: 'length', message: `exceeds ${MAX_DESCRIPTION_CHARS} characters (got ${description.length})`, text: description.slice(MAX_DESCRIPTION_CHARS) });
  }
  for (const [pattern, kind] of ASSERTIVE) {
    const match = pattern.exec(description);
    if (match) findings.push({ rule: 'assertive', message: `${kind}: "${match[0]}"`, text: match[0] });
  }
  for (const other of context.otherTools ?? []) {
    // Only identifier-like names (write_file, getUser): a plain word such as "search" is ordinary prose.
    if (other.length >= 4 && /[_-]|[a-z][A-Z]/.test(other) && new RegExp(`\\b${escapeRegExp(other)}\\b`, 'i').test(description)) {
      findings.push({ rule: 'assertive', message: `claim about other tools: names "${other}"`, text: other });
    }
  }
  const leak = copiedRun(description, context.goldenPrompts, 4);
  if (leak) findings.push({ rule: 'leakage', message: `copies ${leak.length} words from a golden prompt: "${leak.join(' ')}"`, text: leak.join(' ') });
  if (!statesPurpose(description)) {
    findings.push({ rule: 'no-purpose', message: 'states no purpose (no action such as "returns", "creates", "searches" in at least 4 words)', text: description });
  }
  const outlier = ngramOutlier(description, context.catalogDescriptions);
  if (outlier) findings.push({ rule: 'outlier', message: outlier.message, text: outlier.text });
  return findings;
}

/** The longest run of at least `min` consecutive words of `text` that also occurs in one of `sources`. */
export function copiedRun(text: string, sources: readonly string[], min: number): string[] | undefined {
  const mine = words(text);
  const grams = new Set<string>();
  for (const source of sources) {
    const w = words(source);
    for (let i = 0; i + min <= w.length; i++) grams.add(w.slice(i, i + min).join(' '));
  }
  let best: string[] | undefined;
  for (let i = 0; i + min <= mine.length; i++) {
    if (!grams.has(mine.slice(i, i + min).join(' '))) continue;
    let end = i + min;
    while (end < mine.length && grams.has(mine.slice(end - min + 1, end + 1).join(' '))) end++;
    if (!best || end - i > best.length) best = mine.slice(i, end);
  }
  return best;
}

export function statesPurpose(description: string): boolean {
  const w = words(description);
  if (w.length < 4) return false;
  return w.some((word) => ACTION_STEMS.some((stem) => word.startsWith(stem)));
}

/**
 * Character trigram model (interpolated with bigrams and unigrams) of the catalog's descriptions: a cheap
 * perplexity proxy. A candidate is an outlier when its per-character cross-entropy exceeds the mean of the
 * catalog's own leave-one-out cross-entropies by 3 standard deviations. Needs at least 8 catalog descriptions;
 * below that it never flags.
 */
export function ngramOutlier(description: string, catalog: readonly string[]): { message: string; text: string } | undefined {
  const docs = catalog.map(normalize).filter((d) => d.length >= 10);
  if (docs.length < 8 || !description.trim()) return undefined;
  const model = new TrigramModel(docs);
  const own = docs.map((d) => model.entropy(d, d));
  const mean = own.reduce((s, x) => s + x, 0) / own.length;
  const sd = Math.sqrt(own.reduce((s, x) => s + (x - mean) ** 2, 0) / own.length);
  const limit = mean + 3 * sd;
  const text = normalize(description);
  const score = model.entropy(text);
  if (score <= limit) return undefined;
  return {
    message: `reads unlike the catalog's descriptions (character trigram cross-entropy ${score.toFixed(2)} bits/char, catalog ${mean.toFixed(2)} ± ${sd.toFixed(2)}, limit ${limit.toFixed(2)}); most unusual part: "${model.worstWindow(text, 24)}"`,
    text: model.worstWindow(text, 24),
  };
}

function normalize(text: string): string {
  return text.toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Interpolated character model: trigram, bigram, unigram and uniform, weights 0.5 / 0.3 / 0.15 / 0.05. */
class TrigramModel {
  private readonly counts = [new Map<string, number>(), new Map<string, number>(), new Map<string, number>(), new Map<string, number>()];
  private readonly alphabet: number;

  constructor(docs: readonly string[]) {
    const chars = new Set<string>();
    for (const d of docs) {
      for (const c of d) chars.add(c);
      this.adjust(d, 1);
    }
    this.alphabet = chars.size + 1;
  }

  /** counts[k] holds n-grams of length k (k = 0: the total, under the key ""). */
  private adjust(doc: string, n: number): void {
    const padded = `  ${doc}`;
    for (let i = 2; i < padded.length; i++) {
      for (let k = 0; k <= 3; k++) {
        const gram = padded.slice(i + 1 - k, i + 1);
        this.counts[k].set(gram, (this.counts[k].get(gram) ?? 0) + n);
      }
    }
  }

  private probability(context: string, char: string): number {
    const c = (k: number, g: string) => this.counts[k].get(g) ?? 0;
    const ratio = (num: number, den: number) => (den > 0 ? num / den : 0);
    const p3 = ratio(c(3, context + char), c(2, context));
    const p2 = ratio(c(2, context[1] + char), c(1, context[1]));
    const p1 = ratio(c(1, char), c(0, ''));
    return 0.5 * p3 + 0.3 * p2 + 0.15 * p1 + 0.05 / this.alphabet;
  }

  /** -log2 P(char | two before), per character; `exclude`: a training document left out (leave-one-out). */
  surprisals(text: string, exclude?: string): number[] {
    if (exclude !== undefined) this.adjust(exclude, -1);
    const padded = `  ${text}`;
    const out: number[] = [];
    for (let i = 2; i < padded.length; i++) out.push(-Math.log2(this.probability(padded.slice(i - 2, i), padded[i])));
    if (exclude !== undefined) this.adjust(exclude, 1);
    return out;
  }

  entropy(text: string, exclude?: string): number {
    const s = this.surprisals(text, exclude);
    return s.reduce((a, x) => a + x, 0) / Math.max(1, s.length);
  }

  worstWindow(text: string, width: number): string {
    const s = this.surprisals(text);
    if (text.length <= width) return text;
    let best = 0;
    let bestSum = -Infinity;
    for (let i = 0; i + width <= s.length; i++) {
      const sum = s.slice(i, i + width).reduce((a, x) => a + x, 0);
      if (sum > bestSum) (bestSum = sum), (best = i);
    }
    return text.slice(best, best + width);
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
