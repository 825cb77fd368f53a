// Owns the store's public surface: re-exports what the gateway, CLI and HTTP layers may use.
export { openDatabase, DEFAULT_DB_FILE, type OpenDatabaseOptions, type Store } from './database.js';
export { MIGRATIONS, LATEST_VERSION, migrate, type Migration } from './migrations.js';
export { StoreError, type StoreErrorCode } from './errors.js';
export { canonicalJson, contentHash, hashedView, entryKey, TOOL_HASHED_FIELDS } from './content-hash.js';
export { diffSummary, type DiffSummaryOptions } from './diff-summary.js';
export { SqliteCatalogRepository, type CatalogRepository, type CatalogRepositoryOptions } from './catalog-repository.js';
export {
  SqliteMetricsRepository,
  DEFAULT_RETENTION_DAYS,
  checkRetentionDays,
  MAX_ERROR_MESSAGE,
  type MetricsRepository,
  type MetricsRepositoryOptions,
} from './metrics-repository.js';
export { DAY_MS, startOfUtcDay, utcDayLabel, utcDayStart } from './utc-day.js';
export * from './types.js';
export { SqliteHandshakeRepository, type HandshakeRepository, type Handshake } from './handshake-repository.js';
export { SqliteToolsetRepository, type ToolsetRepository, type Toolset, type ToolReference } from './toolset-repository.js';
export {
  SqliteVectorRepository,
  SqliteLearnedQueryRepository,
  type VectorRepository,
  type LearnedQueryRepository,
  type LearnedQuery,
  type LearnedQueryOptions,
} from './search-repository.js';
export { JournaledMetricsRepository, recoverCallJournals, JOURNAL_DIR, REJECTED_JOURNAL_DIR, HOST_TAG, type CallJournalOptions, type RecoveryReport } from './call-journal.js';
export {
  SqliteOptimizeRepository,
  type OptimizeRepository,
  type CanonicalTool,
  type Promotion,
  type StoredCandidate,
  type GoldenPrompt,
  type PromptCategory,
  type PromptSplit,
  type EvalRunRow,
} from './optimize-repository.js';
export { SqlitePinRepository, type PinRepository, type PinWrite, type ToolPin } from './pin-repository.js';
