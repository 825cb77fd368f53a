// Owns noticing promotions made outside this process: `switchboard optimize promote` or `revert` run from a
// terminal while the gateway serves. A cheap signature of the promotions table is read every few seconds; when it
// changes, the overlay re-reads the active promotions and the servers whose texts changed are re-applied, so
// clients see the new descriptions with list_changed, as they do for promotions made through the MCP tools.
import type { OptimizeRepository } from '../store/index.js';
import type { DescriptionOverrides } from './overrides.js';

export interface PromotionWatchOptions {
  repository: OptimizeRepository;
  overrides: DescriptionOverrides;
  /** Servers whose active promotions differ from before. */
  onChanged: (servers: string[]) => void;
  onError: (error: Error) => void;
  intervalMs?: number;
}

/** Starts watching; returns the function that stops it. */
export function watchPromotions(options: PromotionWatchOptions): () => void {
  const { repository, overrides } = options;
  let signature = repository.promotionsSignature();
  let active = snapshot(repository);
  const timer = setInterval(() => {
    try {
      const next = repository.promotionsSignature();
      if (next === signature) return;
      signature = next;
      const now = snapshot(repository);
      const servers = new Set([...active.keys(), ...now.keys()].filter((k) => active.get(k) !== now.get(k)).map((k) => k.split('\u0000')[0]));
      active = now;
      overrides.reload();
      if (servers.size) options.onChanged([...servers]);
    } catch (error) {
      options.onError(error as Error);
    }
  }, options.intervalMs ?? 2000);
  timer.unref();
  return () => clearInterval(timer);
}

/** Each active promotion's text and staleness, by server and tool. */
function snapshot(repository: OptimizeRepository): Map<string, string> {
  return new Map(repository.activePromotions().map((p) => [`${p.server}\u0000${p.tool}`, `${p.id}:${p.stale ? 1 : 0}:${p.description}`]));
}
