// Owns the gateway's settings: what the Gateway is built with (naming, timeouts, isolation idle
// time, lazy start, recording, search) and meta-mode settings, with their defaults.
import type { SearchSettings } from '../config/index.js';
import { DEFAULT_RESILIENCE, type ResilienceOptions } from '../servers/connection.js';
import { DEFAULT_PAGE_SIZE } from './pagination.js';

export interface GatewaySettings {
  separator: string;
  nameBudget: number;
  requestTimeoutMs: number;
  listChangedDebounceMs: number;
  /** Listings (and a per-server endpoint's initialize) wait at most this long for servers still starting. */
  listTimeoutMs: number;
  /** A session's own connections stop after this long without activity (0: only when it ends); they start again on use. */
  isolatedIdleMs: number;
  pageSize: number;
  resilience: ResilienceOptions;
  /** Start servers on first use; list them from the store's cache until then. */
  lazy: boolean;
  /** Record every tool call in the store. */
  recordCalls: boolean;
  /** Listed tools carry their call metrics in `_meta` (needs the store). */
  includeMetrics: boolean;
  /** Tool search: modes, embeddings, learning from use, priors. */
  search: SearchSettings;
}

export const DEFAULT_GATEWAY_SETTINGS: GatewaySettings = {
  separator: '_',
  nameBudget: 48,
  requestTimeoutMs: 60_000,
  listChangedDebounceMs: 100,
  listTimeoutMs: 3000,
  isolatedIdleMs: 5 * 60 * 1000,
  pageSize: DEFAULT_PAGE_SIZE,
  resilience: DEFAULT_RESILIENCE,
  lazy: true,
  recordCalls: true,
  includeMetrics: false,
  search: { learning: true, learningHalfLifeDays: 30, priors: true },
};

/** Meta mode, auto mode and fallback suggestions (see docs/meta-mode.md). */
export interface MetaSettings {
  /** Exposed names always listed directly next to the meta-tools. */
  keepTools: string[];
  /** Auto mode: passthrough up to this many exposed tools, meta above. */
  maxTools: number;
  /** At most this many fallback suggestions on a failed tool call. */
  maxFallbacks: number;
  /** Tokens of a passthrough tools/list above which serve warns (reported by /api/tokens). */
  tokenBudget: number;
  /** A failed call is retried once with the first fallback suggestion (same arguments). */
  autoRetryFallback: boolean;
}

export const DEFAULT_META_SETTINGS: MetaSettings = { keepTools: [], maxTools: 40, maxFallbacks: 3, tokenBudget: 20_000, autoRetryFallback: false };
