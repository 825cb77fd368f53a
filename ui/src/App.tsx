// Owns the dashboard's frame: the header (servers up, token), the navigation between views (by URL hash,
// so a view can be linked and reloaded), the shared server list, and the token prompt when the gateway
// asks for one.
import { useEffect, useState } from 'preact/hooks';
import { get, onTokenNeeded, saveToken, storedToken } from './api';
import { useResource } from './hooks';
import { TokenPrompt } from './components/TokenPrompt';
import { ServersView } from './views/Servers';
import { ToolsView } from './views/Tools';
import { ToolsetsView } from './views/Toolsets';
import { MetricsView } from './views/Metrics';
import { ActivityView } from './views/Activity';
import { OptimizationView } from './views/Optimization';
import type { ServerStatus } from './types';

const VIEWS = ['servers', 'tools', 'toolsets', 'metrics', 'activity', 'optimization'] as const;
type ViewName = (typeof VIEWS)[number];
const TITLES: Record<ViewName, string> = { servers: 'Servers', tools: 'Tools', toolsets: 'Toolsets', metrics: 'Metrics', activity: 'Activity', optimization: 'Optimization' };

function currentView(): ViewName {
  const name = location.hash.replace(/^#\/?/, '') as ViewName;
  return VIEWS.includes(name) ? name : 'servers';
}

export function App() {
  const [view, setView] = useState<ViewName>(currentView);
  const [tokenReason, setTokenReason] = useState<string | undefined>(undefined);
  const [generation, setGeneration] = useState(0); // bumped when the token changes: every view reloads
  const servers = useResource(() => get<{ servers: ServerStatus[]; sessions: number }>('/api/servers'), [generation], 5000);

  useEffect(() => {
    const listener = () => setView(currentView());
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
  }, []);
  useEffect(() => onTokenNeeded((reason) => setTokenReason(reason)), []);

  const list = servers.data?.servers;
  const up = list?.filter((s) => s.state === 'connected' || s.state === 'degraded').length ?? 0;
  return (
    <div class="app">
      <header class="top">
        <a class="brand" href="#/servers">Switchboard</a>
        <nav>
          {VIEWS.map((name) => (
            <a key={name} href={`#/${name}`} class={name === view ? 'active' : ''} aria-current={name === view ? 'page' : undefined}>
              {TITLES[name]}
            </a>
          ))}
        </nav>
        <span class="spacer" />
        <span class="muted small" data-testid="header-summary">
          {list ? `${up}/${list.length} servers up · ${servers.data?.sessions ?? 0} sessions · ${location.host}` : servers.error ? 'gateway unreachable' : 'connecting…'}
        </span>
        {storedToken() ? (
          <button class="small" onClick={() => { saveToken(undefined); setGeneration((g) => g + 1); }}>Forget token</button>
        ) : (
          <button class="small" onClick={() => setTokenReason('Give a client token for gateways that require one.')}>Set token</button>
        )}
      </header>
      <main key={generation}>
        {view === 'servers' && <ServersView servers={list} serversError={servers.error} reloadServers={servers.reload} />}
        {view === 'tools' && <ToolsView />}
        {view === 'toolsets' && <ToolsetsView />}
        {view === 'metrics' && <MetricsView servers={list?.map((s) => s.key) ?? []} />}
        {view === 'activity' && <ActivityView />}
        {view === 'optimization' && <OptimizationView />}
      </main>
      {tokenReason && (
        <TokenPrompt
          reason={tokenReason}
          onClose={() => setTokenReason(undefined)}
          onSaved={() => {
            setTokenReason(undefined);
            setGeneration((g) => g + 1);
          }}
        />
      )}
    </div>
  );
}
