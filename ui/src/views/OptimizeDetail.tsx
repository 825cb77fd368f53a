// Owns one tool's optimization detail: canonical vs promoted text with character counts, per-category
// success rates before → after with their 95 % intervals as bars, the golden prompts with pass/fail, and
// Revert / Re-optimize.
import { useState } from 'preact/hooks';
import { api, get } from '../api';
import { useResource } from '../hooks';
import { Badge, ErrorNote } from '../components/Bits';
import type { OptimizeToolState, Rate } from '../types';

interface PromptRow {
  id: string;
  category: string;
  prompt: string;
  expectedBehavior: { shouldCallTool: boolean; notes?: string };
  canonical: string;
  candidate?: string;
  passed?: boolean;
}

function RateBar({ label, rate }: { label: string; rate: Rate }) {
  return (
    <div class="rate">
      <span class="rate-label">{label}</span>
      <span class="rate-track">
        <span class="rate-interval" style={{ left: `${rate.low * 100}%`, width: `${Math.max(0.5, (rate.high - rate.low) * 100)}%` }} />
        <span class="rate-fill" style={{ width: `${rate.rate * 100}%` }} />
      </span>
      <span class="mono small">
        {Math.round(rate.rate * 100)}% [{Math.round(rate.low * 100)}–{Math.round(rate.high * 100)}] {rate.successes}/{rate.runs}
      </span>
    </div>
  );
}

export function OptimizeDetail({ server, tool, running, onChanged, onReoptimize }: { server: string; tool: OptimizeToolState; running: boolean; onChanged(): Promise<void>; onReoptimize(): void }) {
  const prompts = useResource(() => get<{ tools: Array<{ tool: string; prompts: PromptRow[]; rates: Record<string, number> }> }>(`/api/optimize/prompts?server=${encodeURIComponent(server)}&tool=${encodeURIComponent(tool.tool)}`), [server, tool.tool, tool.promoted?.promotedAt]);
  const [error, setError] = useState<string | undefined>(undefined);
  const revert = async () => {
    setError(undefined);
    try {
      await api('POST', '/api/optimize/revert', { server, tool: tool.tool });
      await onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const list = prompts.data?.tools[0]?.prompts ?? [];
  return (
    <div class="opt-detail" data-testid="optimize-detail">
      <div class="compare">
        <div>
          <h4>Canonical <span class="muted small">{tool.canonical.chars} chars</span></h4>
          <pre class="text">{tool.canonical.text || 'no description'}</pre>
        </div>
        <div>
          <h4>{tool.promoted ? 'Promoted' : 'Promoted: none'} {tool.promoted && <span class="muted small">{tool.promoted.chars} chars · {new Date(tool.promoted.promotedAt).toLocaleString()}</span>}</h4>
          <pre class="text">{tool.promoted?.text ?? 'Clients see the canonical text.'}</pre>
        </div>
      </div>
      {tool.evaluation && (
        <>
          <h4>
            Success per category, before → after{' '}
            {tool.evaluation.passes ? <Badge value="ok" label="passes the rule" /> : <Badge value="failed" label={tool.evaluation.refused ?? 'does not pass'} />}
          </h4>
          {tool.evaluation.categories.map((c) => (
            <div class="rate-group" key={c.category}>
              <strong class="small">{c.category}</strong>
              <RateBar label="before" rate={c.before} />
              {c.after && <RateBar label="after" rate={c.after} />}
            </div>
          ))}
        </>
      )}
      <h4>Golden prompts <span class="muted small">{list.length}</span></h4>
      <ErrorNote message={prompts.error} />
      {list.length > 0 && (
        <table class="grid compact">
          <tbody>
            {list.map((p) => (
              <tr key={p.id}>
                <td><Badge value="configured" label={p.category} /></td>
                <td>{p.prompt}<div class="muted small">{p.expectedBehavior.shouldCallTool ? 'should call the tool' : 'should not call the tool'}{p.expectedBehavior.notes ? ` · ${p.expectedBehavior.notes}` : ''}</div></td>
                <td class="mono small">canonical {p.canonical}{p.candidate ? ` · candidate ${p.candidate}` : ''}</td>
                <td>{p.passed === undefined ? <span class="muted">not run</span> : p.passed ? <Badge value="ok" label="pass" /> : <Badge value="failed" label="fail" />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <ErrorNote message={error} />
      <div class="card-actions">
        <button disabled={!tool.promoted} onClick={revert}>Revert</button>
        <button class="primary" disabled={running || tool.prompts.total === 0} title={tool.prompts.total === 0 ? 'needs golden prompts' : ''} onClick={onReoptimize}>Re-optimize</button>
      </div>
    </div>
  );
}
