// Owns which description a client sees for each tool: a plain override from the settings (`descriptions`), else
// the tool's active, non-stale promotion, else the server's own text. Captures every tool's canonical definition
// with its content hash on listing and marks a promotion stale when its server changes the tool afterwards.
import { withDescription, type DescriptionOverlay } from '../catalog/overlay.js';
import type { Entry } from '../catalog/catalog.js';
import { contentHash, type OptimizeRepository, type Promotion } from '../store/index.js';

export type DescriptionMap = Record<string, Record<string, string>>;

export interface OverridesOptions {
  /** Where canonical tools and promotions live; without one only the settings' overrides apply. */
  repository?: OptimizeRepository;
  descriptions?: DescriptionMap;
  /** Told when a promotion became stale (server, tool, reason). */
  onStale?: (promotion: Promotion, reason: string) => void;
}

export type DescriptionSource = 'canonical' | 'override' | 'promotion';

export class DescriptionOverrides implements DescriptionOverlay {
  private descriptions: DescriptionMap;
  private promotions = new Map<string, Promotion>();
  private readonly repository: OptimizeRepository | undefined;

  constructor(private readonly options: OverridesOptions = {}) {
    this.repository = options.repository;
    this.descriptions = options.descriptions ?? {};
    this.reload();
  }

  /** Re-reads the active promotions from the store (after promote or revert, possibly by another process). */
  reload(): void {
    this.promotions = new Map((this.repository?.activePromotions() ?? []).map((p) => [key(p.server, p.tool), p]));
  }

  /** Replaces the settings' overrides; returns the servers whose overrides differ. */
  setDescriptions(next: DescriptionMap): string[] {
    const servers = new Set([...Object.keys(this.descriptions), ...Object.keys(next)]);
    const changed = [...servers].filter((s) => JSON.stringify(this.descriptions[s] ?? {}) !== JSON.stringify(next[s] ?? {}));
    this.descriptions = next;
    return changed;
  }

  apply(server: string, tools: readonly Entry[]): Entry[] {
    return tools.map((tool) => {
      const name = tool.name as string;
      const hash = contentHash('tools', tool);
      this.repository?.saveCanonical(server, name, hash, tool);
      const promotion = this.livePromotion(server, name, hash);
      const text = this.descriptions[server]?.[name] ?? promotion?.description;
      return text === undefined || text === tool.description ? tool : withDescription(tool, text);
    });
  }

  /** Which text a tool shows, and from where. */
  effective(server: string, tool: Entry): { description: string | undefined; source: DescriptionSource; promotion?: Promotion } {
    const name = tool.name as string;
    const override = this.descriptions[server]?.[name];
    if (override !== undefined) return { description: override, source: 'override' };
    const promotion = this.livePromotion(server, name, contentHash('tools', tool));
    if (promotion) return { description: promotion.description, source: 'promotion', promotion };
    return { description: tool.description as string | undefined, source: 'canonical' };
  }

  /** The tool's active promotion unless it is stale (checked against the tool's current hash, marked once). */
  private livePromotion(server: string, tool: string, hash: string): Promotion | undefined {
    const promotion = this.promotions.get(key(server, tool));
    if (!promotion || promotion.stale) return undefined;
    if (promotion.canonicalHash === hash) return promotion;
    const reason = `the server changed ${server}.${tool} after the promotion (hash ${promotion.canonicalHash.slice(0, 12)} -> ${hash.slice(0, 12)}); the canonical description is served until it is evaluated again`;
    this.repository?.markStale(promotion.id, reason);
    const stale = { ...promotion, stale: true, staleReason: reason };
    this.promotions.set(key(server, tool), stale);
    this.options.onStale?.(stale, reason);
    return undefined;
  }
}

function key(server: string, tool: string): string {
  return `${server}\u0000${tool}`;
}
