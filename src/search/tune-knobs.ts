// Owns the tunable knobs of the lexical engine for the two-fold protocol of issue 20 (tune.ts): the
// generic ones every catalog has (field weights, BM25 k1 and b, name coverage, server boost, typo
// and prefix matching, learned abbreviations, query keywords, phrases, per-server cap, joined names)
// apart from the curated word lists (the synonym groups of synonyms.ts), each with the bounded set
// of values the search tries, and the starting point: the engine set up like plain BM25.
import { DEFAULT_INDEX_OPTIONS, type IndexOptions } from './index.js';
import { DEFAULT_KEYWORD_OPTIONS } from './keywords.js';
import { DEFAULT_QUERY_OPTIONS } from './query.js';

/** Whether the curated word lists (synonym groups, topic groups) take part. */
export const WORD_LISTS = ['off', 'on'] as const;
export type WordLists = (typeof WORD_LISTS)[number];

export type KnobValue = number | boolean;

export interface Knob {
  name: string;
  /** Generic (every catalog has it) or curated (a vocabulary someone wrote down). */
  kind: 'generic' | 'curated';
  values: readonly KnobValue[];
  get(options: IndexOptions): KnobValue;
  set(options: IndexOptions, value: KnobValue): IndexOptions;
}

type FieldWeight = keyof IndexOptions['weights'];

const num = (value: KnobValue): number => (typeof value === 'number' ? value : Number(value));

function fieldWeight(field: FieldWeight, values: readonly number[]): Knob {
  return {
    name: `weights.${field}`,
    kind: 'generic',
    values,
    get: (o) => o.weights[field],
    set: (o, v) => ({ ...o, weights: { ...o.weights, [field]: num(v) } }),
  };
}

function fieldB(field: FieldWeight): Knob {
  return {
    name: `b.${field}`,
    kind: 'generic',
    values: [0.2, 0.4, 0.6, 0.8],
    get: (o) => o.b[field],
    set: (o, v) => ({ ...o, b: { ...o.b, [field]: num(v) } }),
  };
}

function topLevel<K extends 'k1' | 'nameCoverage' | 'serverBoost' | 'phraseWeight' | 'maxPerServer'>(name: K, values: readonly number[]): Knob {
  return { name, kind: 'generic', values, get: (o) => o[name], set: (o, v) => ({ ...o, [name]: num(v) }) };
}

function queryWeight(name: 'abbreviationWeight' | 'synonymWeight', kind: Knob['kind'], values: readonly number[]): Knob {
  return { name: `query.${name}`, kind, values, get: (o) => o.query[name], set: (o, v) => ({ ...o, query: { ...o.query, [name]: num(v) } }) };
}

/** A matcher that is off at 0 and on at the given weight otherwise. */
function switchedWeight(name: string, on: 'fuzzy' | 'prefix', weight: 'fuzzyWeight' | 'prefixWeight', values: readonly number[]): Knob {
  return {
    name,
    kind: 'generic',
    values,
    get: (o) => (o.query[on] ? o.query[weight] : 0),
    set: (o, v) => ({ ...o, query: { ...o.query, [on]: num(v) > 0, [weight]: num(v) > 0 ? num(v) : o.query[weight] } }),
  };
}

/** The generic knobs, in the order the coordinate search visits them. */
export const GENERIC_KNOBS: readonly Knob[] = [
  topLevel('k1', [0.5, 0.9, 1.2, 1.6, 2.2]),
  fieldWeight('name', [0.5, 1, 1.5, 2, 3, 5]),
  fieldWeight('params', [0, 0.2, 0.4, 0.7, 1]),
  fieldWeight('enums', [0, 0.2, 0.5, 1]),
  fieldWeight('server', [0, 0.3, 0.6, 1]),
  fieldWeight('serverInfo', [0, 0.3, 0.6, 1]),
  fieldB('name'),
  fieldB('description'),
  fieldB('params'),
  topLevel('nameCoverage', [0, 0.1, 0.2, 0.3, 0.5, 0.8]),
  topLevel('serverBoost', [0, 0.1, 0.2, 0.4]),
  switchedWeight('typo', 'fuzzy', 'fuzzyWeight', [0, 0.3, 0.5, 0.7]),
  switchedWeight('prefix', 'prefix', 'prefixWeight', [0, 0.3, 0.5]),
  queryWeight('abbreviationWeight', 'generic', [0, 0.3, 0.5, 0.8]),
  {
    name: 'keywords.relativeIdf',
    kind: 'generic',
    values: [0, 0.3, 0.5, 0.7],
    get: (o) => o.keywords.relativeIdf,
    set: (o, v) => ({ ...o, keywords: { ...o.keywords, relativeIdf: num(v) } }),
  },
  topLevel('phraseWeight', [0, 0.3, 0.6]),
  topLevel('maxPerServer', [0, 2, 3]),
  { name: 'splitJoinedNames', kind: 'generic', values: [false, true], get: (o) => o.splitJoinedNames, set: (o, v) => ({ ...o, splitJoinedNames: v === true }) },
];

/** The curated lists' knobs (only with the lists on): their weight, and the topic groups on or off. */
export const CURATED_KNOBS: readonly Knob[] = [
  queryWeight('synonymWeight', 'curated', [0.3, 0.5, 0.7]),
  {
    name: 'query.domainSynonyms',
    kind: 'curated',
    values: [true, false],
    get: (o) => o.query.domainSynonyms,
    set: (o, v) => ({ ...o, query: { ...o.query, domainSynonyms: v === true } }),
  },
];

export function knobsFor(lists: WordLists): readonly Knob[] {
  return lists === 'on' ? [...GENERIC_KNOBS, ...CURATED_KNOBS] : GENERIC_KNOBS;
}

/**
 * The starting point: the engine set up like the README's plain BM25 (k1 0.9, b 0.4; server key,
 * name, description and parameters at weight 1; no enums, server description, synonyms, typos,
 * prefixes, coverage or boost). The engine's tokenizer (stemming, lemmas, stop words) is not a knob.
 * With the lists on, the curated synonym groups start on at their shipped weight.
 */
export function startOptions(lists: WordLists): IndexOptions {
  const d = DEFAULT_INDEX_OPTIONS;
  const b = 0.4;
  return {
    ...d,
    k1: 0.9,
    weights: { ...d.weights, name: 1, server: 1, description: 1, params: 1, enums: 0, serverInfo: 0 },
    b: { ...d.b, name: b, server: b, description: b, params: b, enums: b, serverInfo: b },
    query: {
      ...DEFAULT_QUERY_OPTIONS,
      synonyms: lists === 'on',
      domainSynonyms: lists === 'on',
      fuzzy: false,
      prefix: false,
      abbreviationWeight: 0,
      abbreviationContractions: false,
      numeronymWeight: 0,
    },
    keywords: { ...DEFAULT_KEYWORD_OPTIONS, relativeIdf: 0 },
    serverBoost: 0,
    phraseWeight: 0,
    nameCoverage: 0,
    maxPerServer: 0,
    splitJoinedNames: false,
  };
}

/** The options as `--index-options` JSON: every knob spelled out, so `--cross` reproduces them over any defaults. */
export function optionsJson(o: IndexOptions): string {
  const { k1, weights, b, query, keywords, serverBoost, phraseWeight, nameCoverage, maxPerServer, splitJoinedNames } = o;
  return JSON.stringify({ k1, weights, b, query, keywords, serverBoost, phraseWeight, nameCoverage, maxPerServer, splitJoinedNames });
}
