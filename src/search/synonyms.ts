// Owns the curated synonym table: CLI and API verbs (rm/delete/remove, ls/list, get/fetch/read, ...)
// and the handful of nouns tool names abbreviate (repo, dir, msg, img, ...). A query word expands to
// the other members of its groups at a reduced weight; the table is keyed by stem so inflected forms
// ("deleting", "removes") expand too.
import { stem } from './tokenize.js';

/** Each line is one group of interchangeable words, as a user or a tool author might write them. */
const GROUPS: readonly string[] = [
  // verbs
  'delete remove rm del erase drop destroy purge unlink trash',
  'list ls enumerate show browse',
  'get fetch read retrieve obtain load pull download',
  'create add new make insert generate mk touch',
  'update edit modify set change patch alter rename',
  'write save store put persist',
  'search find query lookup locate seek grep lookup discover',
  'send post submit publish notify message',
  'run execute exec invoke launch start call',
  'stop kill terminate halt end cancel abort',
  'move mv relocate transfer',
  'copy cp duplicate clone',
  'open view display inspect',
  'close shut',
  'upload push attach',
  'convert transform translate export',
  'summarize summary summarise digest overview',
  'analyze analyse examine evaluate assess review',
  'check verify validate test',
  'describe info information detail details metadata stat status',
  'count tally number',
  'compare diff difference',
  'schedule book reserve plan',
  'calculate compute math arithmetic',
  'plot chart graph visualize visualise diagram',
  'scrape crawl extract parse',
  'navigate goto visit browse',
  'click press tap',
  'screenshot screen capture snapshot',
  // nouns tool names abbreviate
  'file document doc docs',
  'directory dir folder path',
  'repository repo',
  'message msg chat',
  'image img picture photo pic',
  'video movie clip',
  'database db sql table',
  'configuration config settings setting preferences',
  'identifier id key',
  'user account member profile',
  'issue ticket bug',
  'pull pr merge',
  'branch ref',
];

/**
 * Topic groups (weather, stocks, jobs, recipes, flights, ...): the vocabulary of one kind of catalog.
 * Kept apart so the benchmark can measure whether they transfer (QueryOptions.domainSynonyms).
 */
const DOMAIN_GROUPS: readonly string[] = [
  'weather forecast climate temperature',
  'price cost quote rate',
  'stock share ticker equity',
  'news headline article',
  'map location place address geocode',
  'translate translation language',
  'calendar event meeting appointment',
  'email mail gmail inbox',
  'web internet online website site page url link',
  'paper article publication research academic scholar',
  'job career employment position hire',
  'recipe cook cooking food meal',
  'flight airline plane',
  'hotel lodging accommodation',
  'music song track audio',
  'crypto cryptocurrency bitcoin coin token',
  'money currency exchange',
];

function tableOf(groups: readonly string[]): Map<string, Set<string>> {
  const table = new Map<string, Set<string>>();
  for (const line of groups) {
    const stems = [...new Set(line.split(/\s+/).map(stem))];
    for (const s of stems) {
      let set = table.get(s);
      if (!set) table.set(s, (set = new Set()));
      for (const other of stems) if (other !== s) set.add(other);
    }
  }
  return table;
}

// Built on first use, not at import: stemming every word took ~15 ms of each gateway's start (a
// stdio session's first call, docs/performance.md eighth pass), and many sessions never search.
let general: Map<string, Set<string>> | undefined;
let withDomain: Map<string, Set<string>> | undefined;

/** Stems that stand in for `termStem` (never itself); empty when it is in no group. */
export function synonymsOf(termStem: string, domain = true): readonly string[] {
  const table = domain ? (withDomain ??= tableOf([...GROUPS, ...DOMAIN_GROUPS])) : (general ??= tableOf(GROUPS));
  const set = table.get(termStem);
  return set ? [...set] : [];
}
