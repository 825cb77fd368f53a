// Owns the data hooks of the views: an admin API answer polled on an interval (kept while a refresh fails, with
// the error beside it), and a server-sent event stream followed while the view is shown.
import { createContext, createElement, useCallback, useContext, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useInput, type Key } from 'ink';
import type { AdminClient, StreamStatus } from './client.js';

export interface Polled<T> {
  data: T | undefined;
  error: string | undefined;
  reload(): void;
}

export function usePoll<T>(load: () => Promise<T>, intervalMs: number, deps: readonly unknown[] = []): Polled<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [tick, setTick] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    let live = true;
    let timer: NodeJS.Timeout | undefined;
    const run = async () => {
      try {
        const value = await loadRef.current();
        if (!live) return;
        setData(value);
        setError(undefined);
      } catch (e) {
        if (live) setError((e as Error).message);
      }
      if (live && intervalMs > 0) timer = setTimeout(() => void run(), intervalMs);
    };
    void run();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tick, intervalMs, ...deps]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, reload };
}

export function useStream(client: AdminClient, path: string, onEvent: (type: string, data: unknown) => void): { status: StreamStatus; error?: string } {
  const [state, setState] = useState<{ status: StreamStatus; error?: string }>({ status: 'connecting' });
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(
    () =>
      client.stream(path, {
        onEvent: (type, data) => handler.current(type, data),
        onStatus: (status, error) => setState({ status, ...(error && { error }) }),
      }),
    [client, path],
  );
  return state;
}

type KeyHandler = (input: string, key: Key) => void;
type KeySlots = Map<number, { handler: KeyHandler; active: boolean }>;
const KeysContext = createContext<KeySlots | undefined>(undefined);
let nextSlot = 0;

/**
 * The one stdin subscription of the app: each key goes to every active handler registered with useKeys. Handlers
 * are registered while rendering, so a key pressed right after a frame appears reaches the handler of that frame
 * (Ink's own useInput subscribes only after the frame is drawn, and would miss it or use stale state).
 */
export function KeysProvider({ children }: { children: ReactNode }) {
  const slots = useRef<KeySlots>(new Map()).current;
  const dispatch = useCallback(
    (input: string, key: Key) => {
      const text = input === '' && isBareSpace(key) ? ' ' : input;
      for (const slot of [...slots.values()]) if (slot.active) slot.handler(text, key);
    },
    [slots],
  );
  useInput(dispatch);
  return createElement(KeysContext.Provider, { value: slots }, children);
}

export function useKeys(handler: KeyHandler, options: { isActive?: boolean } = {}): void {
  const slots = useContext(KeysContext);
  if (!slots) throw new Error('useKeys needs a KeysProvider above it');
  const id = useRef(-1);
  if (id.current < 0) id.current = nextSlot++;
  slots.set(id.current, { handler, active: options.isActive !== false });
  useLayoutEffect(() => {
    const slot = id.current;
    return () => void slots.delete(slot);
  }, [slots]);
}

/** Ink passes the space bar as empty input with no key flag; the keys it does flag are told apart here. */
function isBareSpace(key: Key): boolean {
  return !(key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown || key.home || key.end || key.return || key.escape || key.tab || key.backspace || key.delete || key.ctrl || key.meta);
}
