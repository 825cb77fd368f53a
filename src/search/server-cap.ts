// Owns the per-server cap of a ranked list: at most N tools of one server in the top k unless the
// request names that server, the capped tools moved behind every other candidate (never dropped).
// A server is named when every non-stop word of its key appears among the request's words (by stem).
import type { QueryWord } from './query.js';
import { STOP_WORDS, splitWords, stem } from './tokenize.js';

const keyStems = new Map<string, string[]>();

function stemsOfKey(server: string): string[] {
  let stems = keyStems.get(server);
  if (stems === undefined) {
    stems = splitWords(server)
      .filter((w) => !STOP_WORDS.has(w))
      .map(stem);
    if (keyStems.size >= 4096) keyStems.clear();
    keyStems.set(server, stems);
  }
  return stems;
}

/** The servers among `servers` whose key the request spells out. */
export function namedServers(words: readonly QueryWord[], servers: Iterable<string>): Set<string> {
  const said = new Set(words.map((w) => stem(w.word)));
  const named = new Set<string>();
  for (const server of servers) {
    const stems = stemsOfKey(server);
    if (stems.length > 0 && stems.every((s) => said.has(s))) named.add(server);
  }
  return named;
}

/** `ranked` (best first) with at most `cap` tools per server (except `named` ones) in the first `limit`. */
export function capPerServer<T extends { entry: { doc: { server: string } } }>(ranked: readonly T[], cap: number, limit: number, named: ReadonlySet<string>): T[] {
  const kept: T[] = [];
  const later: T[] = [];
  const count = new Map<string, number>();
  for (const r of ranked) {
    const server = r.entry.doc.server;
    const c = count.get(server) ?? 0;
    if (kept.length < limit && (c < cap || named.has(server))) {
      kept.push(r);
      count.set(server, c + 1);
    } else {
      later.push(r);
    }
  }
  return [...kept, ...later].slice(0, limit);
}
