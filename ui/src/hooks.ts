// Owns loading data from the admin API in components: a resource that loads, reloads on demand or on an
// interval, and keeps the last good value while a reload runs.
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Resource<T> {
  data: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload(): Promise<void>;
}

export function useResource<T>(load: () => Promise<T>, deps: unknown[] = [], refreshMs?: number): Resource<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const alive = useRef(true);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      const value = await load();
      if (!alive.current) return;
      setData(value);
      setError(undefined);
    } catch (e) {
      if (alive.current) setError((e as Error).message);
    } finally {
      if (alive.current) setLoading(false);
    }
  }, deps);
  useEffect(() => {
    alive.current = true;
    void reload();
    const timer = refreshMs ? setInterval(() => void reload(), refreshMs) : undefined;
    return () => {
      alive.current = false;
      if (timer) clearInterval(timer);
    };
  }, [reload, refreshMs]);
  return { data, error, loading, reload };
}
