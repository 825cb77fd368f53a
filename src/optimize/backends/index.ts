// Owns choosing an evaluation backend by name from the settings: `retrieval` always exists (offline); the
// others are configured entries (type, baseUrl, model, apiKeyEnv). Unknown names list the configured ones.
import type { OptimizationBackendSettings } from '../../config/index.js';
import { BackendError, type BackendContext, type EvaluationBackend } from './backend.js';
import { RetrievalBackend } from './retrieval.js';
import { OpenAiBackend } from './openai.js';
import { AnthropicBackend } from './anthropic.js';
import { ClaudeCodeBackend } from './claude-code.js';
import { SAMPLING_BACKEND, SamplingBackend } from './sampling.js';

export type BackendFactory = (settings: OptimizationBackendSettings, model?: string, context?: BackendContext) => EvaluationBackend;

const FACTORIES: Partial<Record<OptimizationBackendSettings['type'], BackendFactory>> = {
  retrieval: () => new RetrievalBackend(),
  openai: (settings, model) => new OpenAiBackend(settings, model),
  anthropic: (settings, model) => new AnthropicBackend(settings, model),
  'claude-code': (settings, model) => new ClaudeCodeBackend(settings, model),
  sampling: (settings, model, context) => new SamplingBackend(settings.name, context, model ?? settings.model),
};

/** Backends that exist without configuration: `retrieval` (offline) and `sampling` (the calling client's model). */
const BUILT_IN: readonly OptimizationBackendSettings[] = [
  { name: 'retrieval', type: 'retrieval' },
  { name: SAMPLING_BACKEND, type: 'sampling' },
];

/** Registers a backend type's constructor (model backends register themselves from their modules). */
export function registerBackend(type: OptimizationBackendSettings['type'], factory: BackendFactory): void {
  FACTORIES[type] = factory;
}

export function createBackend(configured: readonly OptimizationBackendSettings[], name = 'retrieval', model?: string, context?: BackendContext): EvaluationBackend {
  const settings = configured.find((b) => b.name === name) ?? BUILT_IN.find((b) => b.name === name);
  if (!settings) {
    const known = [...BUILT_IN.map((b) => b.name), ...configured.map((b) => b.name)].join(', ');
    throw new BackendError(name, `no such backend; configured: ${known} (add it under "optimization": {"backends": [...]} in the settings)`);
  }
  const factory = FACTORIES[settings.type];
  if (!factory) throw new BackendError(name, `backend type "${settings.type}" is not available in this build`);
  return factory(settings, model, context);
}
