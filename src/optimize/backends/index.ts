// Owns choosing an evaluation backend by name from the settings: `retrieval` always exists (offline); the
// others are configured entries (type, baseUrl, model, apiKeyEnv). Unknown names list the configured ones.
import type { OptimizationBackendSettings } from '../../config/index.js';
import { BackendError, type EvaluationBackend } from './backend.js';
import { RetrievalBackend } from './retrieval.js';
import { OpenAiBackend } from './openai.js';
import { AnthropicBackend } from './anthropic.js';
import { ClaudeCodeBackend } from './claude-code.js';

export type BackendFactory = (settings: OptimizationBackendSettings, model?: string) => EvaluationBackend;

const FACTORIES: Partial<Record<OptimizationBackendSettings['type'], BackendFactory>> = {
  retrieval: () => new RetrievalBackend(),
  openai: (settings, model) => new OpenAiBackend(settings, model),
  anthropic: (settings, model) => new AnthropicBackend(settings, model),
  'claude-code': (settings, model) => new ClaudeCodeBackend(settings, model),
};

/** Registers a backend type's constructor (model backends register themselves from their modules). */
export function registerBackend(type: OptimizationBackendSettings['type'], factory: BackendFactory): void {
  FACTORIES[type] = factory;
}

export function createBackend(configured: readonly OptimizationBackendSettings[], name = 'retrieval', model?: string): EvaluationBackend {
  const settings = configured.find((b) => b.name === name) ?? (name === 'retrieval' ? { name, type: 'retrieval' as const } : undefined);
  if (!settings) {
    const known = ['retrieval', ...configured.map((b) => b.name)].join(', ');
    throw new BackendError(name, `no such backend; configured: ${known} (add it under "optimization": {"backends": [...]} in the settings)`);
  }
  const factory = FACTORIES[settings.type];
  if (!factory) throw new BackendError(name, `backend type "${settings.type}" is not available in this build`);
  return factory(settings, model);
}
