// Owns the token report drawn as bars: how many tokens the tools/list answer costs a client per mode
// (passthrough: every tool; meta: the three meta-tools plus keepTools), against the gateway's token budget.
import { get } from '../api';
import { useResource } from '../hooks';

interface TokenReport {
  encoding: string;
  passthrough: { tools: number; tokens: number };
  meta: { tools: number; tokens: number };
  tokenBudget: number;
  maxTools: number;
}

export function TokenBars() {
  const report = useResource(() => get<TokenReport>('/api/tokens'), [], 30_000);
  const data = report.data;
  if (!data) return null;
  const rows = [
    { mode: 'passthrough', ...data.passthrough },
    { mode: 'meta', ...data.meta },
  ];
  const scale = Math.max(data.tokenBudget, ...rows.map((r) => r.tokens)) || 1;
  return (
    <div class="token-bars" data-testid="token-bars">
      <div class="muted small">tools/list size per mode ({data.encoding}); budget {data.tokenBudget.toLocaleString()} tokens</div>
      {rows.map((r) => (
        <div class="token-row" key={r.mode}>
          <span class="token-mode">{r.mode}</span>
          <span class="token-track">
            <span class={`token-fill ${r.tokens > data.tokenBudget ? 'over' : ''}`} style={{ width: `${(r.tokens / scale) * 100}%` }} />
            <span class="token-budget" style={{ left: `${(data.tokenBudget / scale) * 100}%` }} title="token budget" />
          </span>
          <span class="mono small">{r.tokens.toLocaleString()} tokens · {r.tools} tools</span>
        </div>
      ))}
    </div>
  );
}
