// Owns the `retrieval` backend: offline and deterministic. "Selected" means Switchboard's own lexical search
// ranks the tool first for the prompt over the evaluated tool list; it measures findability in meta mode and
// by clients' own tool search. Needs no model.
import { SearchEngine } from '../../search/engine.js';
import type { ToolDoc } from '../../search/document.js';
import { toolId, type EvaluationBackend, type Selection, type SelectionRequest } from './backend.js';

export class RetrievalBackend implements EvaluationBackend {
  readonly name = 'retrieval';
  readonly model = 'switchboard-lexical';
  readonly deterministic = true;
  readonly arms = ['search'] as const;
  private readonly engine = new SearchEngine();

  async select(request: SelectionRequest): Promise<Selection> {
    return { calledTool: this.top(request) };
  }

  /** Synchronous core, for callers that run many prompts (only changed tools are re-indexed between calls). */
  top(request: Pick<SelectionRequest, 'tools' | 'prompt'>): string | undefined {
    const docs: ToolDoc[] = request.tools.map((t) => ({ key: toolId(t), server: t.server ?? '', name: t.name, description: t.description, inputSchema: t.inputSchema }));
    this.engine.sync(docs);
    const hit = this.engine.lexical.search(request.prompt, { limit: 1 })[0];
    return hit?.key;
  }
}
