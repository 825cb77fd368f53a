// Owns the modals that start optimization runs: Optimize Tools for one server (tools to optimize, disabled ones
// grayed out and unchecked, candidates per tool, prompts per category, backend, auto-promote threshold; Start /
// Cancel) and Batch optimize of every server (tool count and an estimate of the evaluations). Progress then shows
// in the Optimization view from /api/optimize/events.
import { Box, Text } from 'ink';
import { useKeys } from '../hooks.js';
import { useState } from 'react';
import type { ModalProps } from './modal-props.js';
import type { ServerOptimization } from '../schemas.js';
import { Modal } from '../components/modal.js';
import { pct } from '../components/bars.js';

type Setting = 'candidates' | 'prompts' | 'backend' | 'threshold';
const SETTINGS: Setting[] = ['candidates', 'prompts', 'backend', 'threshold'];

/** Evaluations a run makes, roughly: per tool with prompts, (canonical + control + 2 per candidate) × its prompts. */
export function estimateSelections(servers: readonly ServerOptimization[], candidates: number, promptsPerCategory?: number): { tools: number; withPrompts: number; selections: number } {
  let tools = 0;
  let withPrompts = 0;
  let selections = 0;
  for (const server of servers) {
    for (const tool of server.tools) {
      tools++;
      const prompts = promptsPerCategory === undefined ? tool.prompts.total : Math.min(tool.prompts.direct, promptsPerCategory) + Math.min(tool.prompts.indirect, promptsPerCategory) + Math.min(tool.prompts.negative, promptsPerCategory);
      if (prompts === 0) continue;
      withPrompts++;
      selections += prompts * (2 + 2 * candidates);
    }
  }
  return { tools, withPrompts, selections };
}

function useRunSettings(defaults: { candidates: number; backend: string; threshold: number }) {
  const [candidates, setCandidates] = useState(defaults.candidates);
  const [prompts, setPrompts] = useState(0); // 0: all
  const [backend, setBackend] = useState(defaults.backend);
  const [threshold, setThreshold] = useState(defaults.threshold);
  return { candidates, setCandidates, prompts, setPrompts, backend, setBackend, threshold, setThreshold };
}

function SettingsRows({ settings, focus }: { settings: ReturnType<typeof useRunSettings>; focus: Setting | undefined }) {
  const row = (name: Setting, label: string, value: string) => (
    <Text key={name} color={focus === name ? 'cyan' : undefined}>{`${focus === name ? '›' : ' '} ${label.padEnd(26)} ◂ ${value} ▸`}</Text>
  );
  return (
    <Box flexDirection="column">
      {row('candidates', 'Candidates per tool', String(settings.candidates))}
      {row('prompts', 'Prompts per category', settings.prompts === 0 ? 'all' : String(settings.prompts))}
      {row('backend', 'Backend', settings.backend)}
      {row('threshold', 'Auto-promote threshold', settings.threshold === 0 ? 'off' : `≥ ${pct(settings.threshold)} overall`)}
    </Box>
  );
}

function adjust(settings: ReturnType<typeof useRunSettings>, focus: Setting, step: number, backends: readonly string[]): void {
  if (focus === 'candidates') settings.setCandidates((c) => Math.max(1, Math.min(20, c + step)));
  if (focus === 'prompts') settings.setPrompts((p) => Math.max(0, Math.min(100, p + step)));
  if (focus === 'threshold') settings.setThreshold((t) => Math.round(Math.max(0, Math.min(1, t + step * 0.05)) * 100) / 100);
  if (focus === 'backend') settings.setBackend((b) => backends[(backends.indexOf(b) + step + backends.length) % backends.length] ?? b);
}

function runRequest(settings: ReturnType<typeof useRunSettings>) {
  return {
    candidates: settings.candidates,
    ...(settings.prompts > 0 && { promptsPerCategory: settings.prompts }),
    backend: settings.backend,
    autoPromoteThreshold: settings.threshold === 0 ? null : settings.threshold,
  };
}

export function OptimizeToolsModal({ client, close, notify, optimization, server, tool, width, height }: ModalProps & { server: string; tool?: string }) {
  const state = optimization?.servers.find((s) => s.server === server);
  const tools = state?.tools ?? [];
  const defaults = optimization?.defaults ?? { candidates: 4, backend: 'retrieval', autoPromoteThreshold: 0.85 };
  const backends = optimization?.backends ?? ['retrieval'];
  const settings = useRunSettings({ candidates: defaults.candidates, backend: defaults.backend, threshold: defaults.autoPromoteThreshold });
  const [checked, setChecked] = useState<Set<string>>(() => new Set(tools.filter((t) => t.enabled && (tool === undefined || t.tool === tool)).map((t) => t.tool)));
  const [cursor, setCursor] = useState(0); // tools first, then the settings
  const [error, setError] = useState<string>();
  const rows = tools.length + SETTINGS.length;
  const focus = cursor >= tools.length ? SETTINGS[cursor - tools.length] : undefined;

  const start = () => {
    if (checked.size === 0) return setError('Check at least one tool (space).');
    client.startRun({ servers: [server], tools: [...checked], ...runRequest(settings) }).then(
      () => {
        notify(`Optimizing ${checked.size} tool(s) of ${server} with ${settings.backend}…`);
        close();
      },
      (e: Error) => setError(e.message),
    );
  };

  useKeys((input, key) => {
    if (key.escape) return close();
    if (key.return) return start();
    if (key.upArrow) return setCursor((c) => Math.max(0, c - 1));
    if (key.downArrow || key.tab) return setCursor((c) => Math.min(rows - 1, c + 1));
    if (focus && (key.leftArrow || key.rightArrow)) return adjust(settings, focus, key.leftArrow ? -1 : 1, backends);
    if (input === ' ' && !focus) {
      const name = tools[cursor]?.tool;
      if (name) setChecked((s) => (s.has(name) ? new Set([...s].filter((n) => n !== name)) : new Set([...s, name])));
    }
    if (input === 'a') setChecked((s) => (s.size ? new Set() : new Set(tools.filter((t) => t.enabled).map((t) => t.tool))));
  });

  const visible = Math.max(2, height - 12);
  const first = Math.max(0, Math.min((focus ? tools.length - 1 : cursor) - Math.floor(visible / 2), tools.length - visible));
  return (
    <Modal title={`Optimize Tools: ${server}`} keys="↑↓ move  space check  a all/none  ←→ change  Enter Start  Esc Cancel" width={width}>
      {tools.length === 0 && <Text dimColor>No tools recorded for this server yet (it lists them when it first starts).</Text>}
      {tools.slice(first, first + visible).map((t, i) => (
        <Text key={t.tool} color={first + i === cursor ? 'cyan' : t.enabled ? undefined : 'gray'} wrap="truncate">
          {`${first + i === cursor ? '›' : ' '} [${checked.has(t.tool) ? 'x' : ' '}] ${t.tool.padEnd(26)}`}
          <Text dimColor>{`${t.enabled ? '' : 'disabled · '}${t.prompts.total ? `${t.prompts.total} prompts` : 'no golden prompts'}${t.optimized ? ' · optimized' : ''}`}</Text>
        </Text>
      ))}
      <Text bold>{`Selected: ${checked.size}/${tools.length} tools`}</Text>
      <SettingsRows settings={settings} focus={focus} />
      <Text>{'  [Enter] Start   [Esc] Cancel'}</Text>
      {error && <Text color="red">{error}</Text>}
    </Modal>
  );
}

export function BatchModal({ client, close, notify, optimization, width }: ModalProps) {
  const defaults = optimization?.defaults ?? { candidates: 4, backend: 'retrieval', autoPromoteThreshold: 0.85 };
  const backends = optimization?.backends ?? ['retrieval'];
  const settings = useRunSettings({ candidates: defaults.candidates, backend: defaults.backend, threshold: defaults.autoPromoteThreshold });
  const [cursor, setCursor] = useState(0);
  const [error, setError] = useState<string>();
  const servers = optimization?.servers ?? [];
  const estimate = estimateSelections(servers, settings.candidates, settings.prompts || undefined);
  const focus = SETTINGS[cursor];

  useKeys((input, key) => {
    if (key.escape) return close();
    if (key.upArrow) return setCursor((c) => Math.max(0, c - 1));
    if (key.downArrow || key.tab) return setCursor((c) => Math.min(SETTINGS.length - 1, c + 1));
    if (key.leftArrow || key.rightArrow) return adjust(settings, focus, key.leftArrow ? -1 : 1, backends);
    if (key.return)
      client.startRun({ servers: servers.map((s) => s.server), ...runRequest(settings) }).then(
        () => {
          notify(`Optimizing every server (${estimate.withPrompts} tools with golden prompts)…`);
          close();
        },
        (e: Error) => setError(e.message),
      );
  });

  return (
    <Modal title="Batch optimize: every server" keys="↑↓ setting  ←→ change  Enter Start  Esc Cancel" width={width}>
      <Text>{`${servers.length} server(s), ${estimate.tools} tools; ${estimate.withPrompts} have golden prompts (the others are skipped).`}</Text>
      <Text>{`Estimate: about ${estimate.selections} evaluations with ${settings.backend}${settings.backend === 'retrieval' ? ' (offline, seconds)' : ' (model calls: minutes, may cost)'}.`}</Text>
      <SettingsRows settings={settings} focus={focus} />
      <Text>{'  [Enter] Start   [Esc] Cancel'}</Text>
      {error && <Text color="red">{error}</Text>}
    </Modal>
  );
}
