// Owns the shape of the gateway's settings: what the Gateway is built with (naming, timeouts,
// isolation idle time, lazy start, recording, search, meta mode, input limits), and how they are read
// from a configuration's settings. Every default comes from config/schema.ts DEFAULT_SETTINGS (the
// one place defaults live); the Gateway gets its settings whole at construction and never later.
import { DEFAULT_SETTINGS, type LimitSettings, type SearchSettings, type SwitchboardSettings } from '../config/index.js';
import type { ResilienceOptions } from '../servers/connection.js';
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
  /** Meta mode, auto mode and fallback suggestions. */
  meta: MetaSettings;
  /** Bounds on client input and results (switchboard.limits). */
  limits: LimitSettings;
  /** A bridged call's pending handle (its requestState) expires after this long without a retry. */
  inputRequiredTtlMs: number;
}

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

/** The meta-mode part of a configuration's settings. */
export function metaSettingsOf(settings: SwitchboardSettings): MetaSettings {
  return { keepTools: [...settings.keepTools], maxTools: settings.maxTools, maxFallbacks: settings.maxFallbacks, tokenBudget: settings.tokenBudget, autoRetryFallback: settings.autoRetryFallback };
}

/** What the Gateway is built with, read from a configuration's settings. */
export function gatewaySettingsOf(settings: SwitchboardSettings): GatewaySettings {
  const { lazy, ...resilience } = settings.resilience;
  return {
    separator: settings.separator,
    nameBudget: settings.nameBudget,
    requestTimeoutMs: settings.requestTimeoutMs,
    listChangedDebounceMs: settings.listChangedDebounceMs,
    listTimeoutMs: settings.listTimeoutMs,
    isolatedIdleMs: settings.isolatedIdleMs,
    pageSize: DEFAULT_PAGE_SIZE,
    resilience: { ...resilience, retry: { ...resilience.retry }, breaker: { ...resilience.breaker }, healthCheck: { ...resilience.healthCheck } },
    lazy,
    recordCalls: settings.recordCalls,
    includeMetrics: settings.includeMetrics,
    search: settings.search,
    meta: metaSettingsOf(settings),
    limits: { ...settings.limits },
    inputRequiredTtlMs: settings.inputRequiredTtlMs,
  };
}

export const DEFAULT_GATEWAY_SETTINGS: GatewaySettings = gatewaySettingsOf(DEFAULT_SETTINGS);
export const DEFAULT_META_SETTINGS: MetaSettings = DEFAULT_GATEWAY_SETTINGS.meta;
