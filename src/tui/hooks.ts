// Owns the data hooks of the views: an admin API answer polled on an interval (kept while a refresh fails, with
// the error beside it), and a server-sent event stream followed while the view is shown.
import { useCallback, useEffect, useRef, useState } from 'react';
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
