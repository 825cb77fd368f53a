// Owns the Tools view: every tool in a searchable table (the query goes to the gateway's own search index,
// so the order is the index's ranking), with tokens, success rate, p50/p95 and a latency sparkline, and a
// drawer with the schema and the canonical vs the description clients see.
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, get } from '../api';
import { useResource } from '../hooks';
import { ago, ms, percent } from '../format';
import { Badge, Empty, ErrorNote } from '../components/Bits';
import { Drawer } from '../components/Overlay';
import { Sparkline } from '../components/Sparkline';
import { TokenBars } from '../components/TokenBars';
import type { ToolRow } from '../types';

type SortKey = 'name' | 'server' | 'tokens' | 'calls' | 'success' | 'p50' | 'p95';
const SORT_VALUE: Record<SortKey, (t: ToolRow) => number | string> = {
  name: (t) => t.exposed ?? t.name,
  server: (t) => t.server,
  tokens: (t) => t.tokens,
  calls: (t) => t.stats.calls,
  success: (t) => t.stats.successRate ?? -1,
  p50: (t) => t.stats.p50Ms ?? -1,
  p95: (t) => t.stats.p95Ms ?? -1,
};

interface SearchAnswer {
  tools: Array<{ name: string; server: string; tool: string; score: number }>;
  mode: string;
  note?: string;
}

export function ToolsView() {
  const tools = useResource(() => get<{ tools: ToolRow[]; pending: string[]; stored: boolean }>('/api/tools'), [], 15_000);
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState<SearchAnswer | undefined>(undefined);
  const [searchError, setSearchError] = useState<string | undefined>(undefined);
  const [open, setOpen] = useState<ToolRow | undefined>(undefined);
  const [server, setServer] = useState('');
  /** A clicked column header orders the rows (the search ranking otherwise); a second click reverses it. */
  const [sort, setSort] = useState<{ key: SortKey; descending: boolean } | undefined>(undefined);

  useEffect(() => {
    const text = query.trim();
    if (!text) {
      setSearch(undefined);
      return;
    }
    setSort(undefined); // a new query shows the index's ranking
    const timer = setTimeout(() => {
      api<SearchAnswer>('POST', '/api/tools/search', { query: text, top_k: 100 })
        .then((answer) => {
          setSearch(answer);
          setSearchError(undefined);
        })
        .catch((e: Error) => setSearchError(e.message));
    }, 200);
    return () => clearTimeout(timer);
  }, [query]);

  const servers = useMemo(() => [...new Set((tools.data?.tools ?? []).map((t) => t.server))], [tools.data]);
  const rows = useMemo(() => {
    const all = (tools.data?.tools ?? []).filter((t) => !server || t.server === server);
    let list: Array<{ row: ToolRow; score: number | undefined }>;
    if (!search) list = all.map((row) => ({ row, score: undefined }));
    else {
      const index = new Map(all.map((t) => [`${t.server}\u0000${t.name}`, t]));
      list = search.tools.flatMap((hit) => {
        const row = index.get(`${hit.server}\u0000${hit.tool}`);
        return row ? [{ row, score: hit.score }] : [];
      });
    }
    if (!sort) return list;
    const value = SORT_VALUE[sort.key];
    const direction = sort.descending ? -1 : 1;
    return [...list].sort((a, b) => {
      const x = value(a.row);
      const y = value(b.row);
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * direction;
    });
  }, [tools.data, search, server, sort]);
  const header = (key: SortKey, label: string, numeric = false) => (
    <th class={`sortable ${numeric ? 'num' : ''}`} aria-sort={sort?.key === key ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <button class="link" onClick={() => setSort(sort?.key === key ? { key, descending: !sort.descending } : { key, descending: numeric })}>
        {label}
        {sort?.key === key ? (sort.descending ? ' ↓' : ' ↑') : ''}
      </button>
    </th>
  );

  return (
    <section>
      <div class="view-head">
        <h1>Tools</h1>
        <input class="search" type="search" placeholder="Search tools (the gateway's search index)…" value={query} onInput={(e) => setQuery(e.currentTarget.value)} aria-label="Search tools" />
        <select value={server} onChange={(e) => setServer(e.currentTarget.value)} aria-label="Server">
          <option value="">all servers</option>
          {servers.map((key) => <option key={key} value={key}>{key}</option>)}
        </select>
        <span class="muted">{search ? `${rows.length} ranked (${search.mode})` : tools.data ? `${rows.length} tools` : ''}</span>
      </div>
      <ErrorNote message={tools.error ?? searchError} />
      <TokenBars />
      {search?.note && <p class="muted small">{search.note}</p>}
      {tools.data && !tools.data.stored && <p class="muted small">This gateway runs without a store: no call statistics.</p>}
      {tools.data?.pending.length ? <p class="muted small">Still listing: {tools.data.pending.join(', ')}</p> : null}
      {tools.data && rows.length === 0 && <Empty>{query ? `Nothing matches "${query}".` : 'No tools listed yet.'}</Empty>}
      {rows.length > 0 && (
        <table class="grid" data-testid="tools-table">
          <thead>
            <tr>
              {header('name', 'Tool')}
              {header('server', 'Server')}
              {search && <th class="num">Score</th>}
              {header('tokens', 'Tokens', true)}
              {header('calls', 'Calls', true)}
              {header('success', 'Success', true)}
              {header('p50', 'p50', true)}
              {header('p95', 'p95', true)}
              <th>Latency</th>
              <th>Last error</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ row, score }) => (
              <tr key={`${row.server}/${row.name}`} class={`clickable ${row.enabled ? '' : 'disabled'}`} data-tool={row.exposed ?? `${row.server}.${row.name}`} onClick={() => setOpen(row)}>
                <td>
                  <code>{row.exposed ?? row.name}</code>
                  {row.exposed && row.exposed !== row.name && <div class="muted small">original: {row.name}</div>}
                  {!row.enabled && <Badge value="stopped" label="hidden" />}
                  {row.promoted && <Badge value="ok" label="optimized" />}
                </td>
                <td>{row.server}</td>
                {search && <td class="num">{score?.toFixed(2)}</td>}
                <td class="num">{row.tokens}</td>
                <td class="num">{row.stats.calls}</td>
                <td class="num">{percent(row.stats.successRate)}</td>
                <td class="num">{ms(row.stats.p50Ms)}</td>
                <td class="num">{ms(row.stats.p95Ms)}</td>
                <td><Sparkline values={row.stats.latencies} /></td>
                <td class="error-cell" title={row.stats.lastError?.message ?? ''}>{row.stats.lastError ? row.stats.lastError.message : <span class="muted">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <ToolDrawer tool={open} onClose={() => setOpen(undefined)} />}
    </section>
  );
}

function ToolDrawer({ tool, onClose }: { tool: ToolRow; onClose(): void }) {
  return (
    <Drawer title={tool.exposed ?? tool.name} onClose={onClose}>
      <dl class="facts">
        <dt>Server</dt>
        <dd>{tool.server}</dd>
        <dt>Original name</dt>
        <dd><code>{tool.name}</code></dd>
        <dt>Exposed as</dt>
        <dd>{tool.exposed ? <code>{tool.exposed}</code> : 'hidden (enabledTools / disabledTools)'}</dd>
        <dt>tools/list tokens</dt>
        <dd>{tool.tokens}</dd>
        <dt>Calls</dt>
        <dd>
          {tool.stats.calls} ({tool.stats.failures} failed), success {percent(tool.stats.successRate)}, p50 {ms(tool.stats.p50Ms)}, p95 {ms(tool.stats.p95Ms)}, last {ago(tool.stats.lastCalledAt)}
        </dd>
        {tool.stats.lastError && (
          <>
            <dt>Last error</dt>
            <dd class="error-text">{tool.stats.lastError.message} <span class="muted">({ago(tool.stats.lastError.at)})</span></dd>
          </>
        )}
      </dl>
      <h3>Description {tool.promoted ? <Badge value="ok" label="optimized" /> : <span class="muted small">(the server's own)</span>}</h3>
      {tool.promoted ? (
        <div class="compare">
          <div>
            <h4>Canonical <span class="muted small">{tool.canonicalDescription.length} chars</span></h4>
            <pre class="text">{tool.canonicalDescription}</pre>
          </div>
          <div>
            <h4>Clients see <span class="muted small">{tool.description.length} chars</span></h4>
            <pre class="text">{tool.description}</pre>
          </div>
        </div>
      ) : (
        <pre class="text">{tool.description || 'no description'}</pre>
      )}
      <h3>Input schema</h3>
      <pre class="code" data-testid="tool-schema">{JSON.stringify(tool.inputSchema, null, 2)}</pre>
    </Drawer>
  );
}
