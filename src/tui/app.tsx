// Owns the terminal UI's frame: which view is shown and which modal is open, the global keys (s l / o views,
// Ctrl+K command menu, ? help, i connect, Esc back, q quit), the header (servers, port, optimizations, link state)
// and the footer (the keys of what is shown). Views and modals live in their own modules.
import { Box, Text, useApp, useStdout } from 'ink';
import { useCallback, useEffect, useState } from 'react';
import type { AdminClient } from './client.js';
import type { Target } from './target.js';
import { usePoll, useStream, useKeys } from './hooks.js';
import { runProgress, type RunProgress } from './schemas.js';
import { ServersView } from './views/servers.js';
import { ActivityView } from './views/activity.js';
import { SearchView } from './views/search.js';
import { OptimizationView } from './views/optimization.js';
import { ModalHost } from './modals/host.js';
import type { ModalState } from './modals/modal-props.js';
import type { ViewProps } from './views/view-props.js';
import { ACTIONS, type ActionId } from './actions.js';

export type ViewName = 'servers' | 'activity' | 'search' | 'optimization';

const FOOTERS: Record<ViewName, string> = {
  servers: '↑↓ r restart  t tools  ^A add  l / o views  ^K menu  ? help  i connect  q quit',
  activity: 'f filter  ^L clear  s / o views  ^K menu  ? help  Esc back  q quit',
  search: 'type to search  ↑↓ select  Esc back  ^K menu',
  optimization: '↑↓ o optimize  d detail  p prompts  ^O all  ^E export  ^K menu  Esc back  q quit',
};

export function App({ client, target, exportDir = process.cwd() }: { client: AdminClient; target: Target; exportDir?: string }) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const [size, setSize] = useState({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
  const [view, setView] = useState<ViewName>('servers');
  const [history, setHistory] = useState<ViewName[]>([]);
  const [modal, setModal] = useState<ModalState | undefined>();
  const [notice, setNotice] = useState<string>();
  const [activityEpoch, setActivityEpoch] = useState(0);

  useEffect(() => {
    const onResize = () => setSize({ columns: stdout.columns || 80, rows: stdout.rows || 24 });
    stdout.on('resize', onResize);
    return () => void stdout.off('resize', onResize);
  }, [stdout]);

  const servers = usePoll(() => client.servers(), 2000);
  const optimization = usePoll(() => client.optimization().catch(() => undefined), 5000);

  const [run, setRun] = useState<RunProgress>();
  useStream(client, '/api/optimize/events', (type, data) => {
    if (type !== 'run') return;
    const parsed = runProgress.safeParse(data);
    if (!parsed.success) return;
    setRun(parsed.data);
    if (parsed.data.state !== 'running') {
      const promoted = parsed.data.outcomes.filter((o) => o.promoted).length;
      setNotice(`Optimization ${parsed.data.state}${parsed.data.error ? `: ${parsed.data.error}` : ''}: ${parsed.data.outcomes.length} tool(s) done, ${promoted} promoted`);
      optimization.reload();
    }
  });

  const go = useCallback(
    (next: ViewName) => {
      setView((current) => {
        if (current !== next) setHistory((h) => [...h.slice(-10), current]);
        return next;
      });
    },
    [],
  );
  const notify = useCallback((message: string) => setNotice(message), []);
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(undefined), 6000);
    return () => clearTimeout(timer);
  }, [notice]);

  const perform = useCallback(
    (action: ActionId) => {
      switch (action) {
        case 'servers':
        case 'activity':
        case 'search':
        case 'optimization':
          return go(action);
        case 'add-server':
          return setModal({ kind: 'add-server' });
        case 'clear-logs':
          go('activity');
          return setActivityEpoch((e) => e + 1);
        case 'optimize-all':
          go('optimization');
          return setModal({ kind: 'batch' });
        case 'export-report':
          return setModal({ kind: 'export' });
        case 'help':
          return setModal({ kind: 'help' });
        case 'connect':
          return setModal({ kind: 'connect' });
        case 'quit':
          return exit();
      }
    },
    [go, exit],
  );

  const typing = view === 'search';
  useKeys(
    (input, key) => {
      if (key.ctrl && input === 'k') return setModal({ kind: 'menu' });
      if (key.ctrl && input === 'a') return perform('add-server');
      if (key.ctrl && input === 'l') return perform('clear-logs');
      if (key.ctrl && input === 'o') return perform('optimize-all');
      if (key.ctrl && input === 'e') return perform('export-report');
      if (key.escape) {
        const previous = history[history.length - 1];
        if (previous) {
          setHistory((h) => h.slice(0, -1));
          setView(previous);
        } else if (view !== 'servers') setView('servers');
        return;
      }
      if (typing || key.ctrl || key.meta) return;
      if (input === 'q') return exit();
      if (input === 's') return go('servers');
      if (input === 'l') return go('activity');
      if (input === '/') return go('search');
      if (input === 'o' && view !== 'optimization') return go('optimization');
      if (input === '?') return perform('help');
      if (input === 'i') return perform('connect');
    },
    { isActive: modal === undefined },
  );

  const list = servers.data?.servers ?? [];
  const up = list.filter((s) => s.state === 'connected' || s.state === 'degraded').length;
  const port = /:(\d+)$/.exec(target.url)?.[1] ?? '';
  const optimized = (optimization.data?.servers ?? []).filter((s) => s.optimized > 0).map((s) => `${s.server} (${s.optimized}/${s.total} tools)`);
  const current = run ?? optimization.data?.run ?? undefined;
  const height = Math.max(6, size.rows - 4);
  const viewProps: ViewProps = { client, active: modal === undefined, height, width: size.columns, open: setModal, notify };

  return (
    <Box flexDirection="column" width={size.columns} height={size.rows}>
      <Box>
        <Text bold color="cyan">
          Switchboard{' '}
        </Text>
        <Text wrap="truncate">
          {`servers ${list.length} (${up} up) · port ${port} · optimized: ${optimized.length ? optimized.join(', ') : 'none'}${current?.state === 'running' ? ' · optimizing…' : ''}`}
        </Text>
      </Box>
      {servers.error ? (
        <Text color="red" wrap="truncate">
          {`Gateway unreachable at ${target.url}: ${servers.error.replace(/^cannot reach the gateway at \S+: /, '')}. Retrying every 2 s…`}
        </Text>
      ) : (
        <Text dimColor wrap="truncate">{`${target.url} (${target.source === 'daemon' ? 'daemon' : target.source === 'flag' ? '--url' : 'default'}) · ${viewTitle(view)}`}</Text>
      )}
      <Box flexGrow={1} flexDirection="column">
        {modal && <ModalHost modal={modal} client={client} close={() => setModal(undefined)} open={setModal} notify={notify} optimization={optimization.data} reloadOptimization={optimization.reload} perform={perform} run={current} exportDir={exportDir} width={Math.min(size.columns, 80)} height={height} />}
        {/* The view stays mounted under a modal (hidden), so its selection and live log survive. */}
        <Box display={modal ? 'none' : 'flex'} flexDirection="column">
          {view === 'servers' ? (
            <ServersView {...viewProps} />
          ) : view === 'activity' ? (
            <ActivityView {...viewProps} epoch={activityEpoch} />
          ) : view === 'search' ? (
            <SearchView {...viewProps} />
          ) : (
            <OptimizationView {...viewProps} state={optimization.data} error={optimization.error} reload={optimization.reload} run={current} />
          )}
        </Box>
      </Box>
      {notice ? (
        <Text color="yellow" wrap="truncate">
          {notice}
        </Text>
      ) : (
        <Text dimColor wrap="truncate">
          {modal ? 'Esc close' : FOOTERS[view]}
        </Text>
      )}
    </Box>
  );
}

function viewTitle(view: ViewName): string {
  return ACTIONS.find((a) => a.id === view)?.label ?? view;
}
