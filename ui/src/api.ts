// Owns talking to the gateway's admin API: JSON requests with the bearer token the user gave (kept in
// localStorage), typed errors, and telling the app when a token is needed (401) so it can ask for one.

const TOKEN_KEY = 'switchboard.token';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

type Listener = (reason: string) => void;
const tokenListeners = new Set<Listener>();

export function storedToken(): string | undefined {
  try {
    return localStorage.getItem(TOKEN_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function saveToken(token: string | undefined): void {
  if (token) localStorage.setItem(TOKEN_KEY, token);
  else localStorage.removeItem(TOKEN_KEY);
}

/** Called with the gateway's message whenever a request is refused for want of a (valid) token. */
export function onTokenNeeded(listener: Listener): () => void {
  tokenListeners.add(listener);
  return () => tokenListeners.delete(listener);
}

export function authHeaders(): Record<string, string> {
  const token = storedToken();
  return token ? { authorization: `Bearer ${token}` } : {};
}

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    headers: { accept: 'application/json', ...authHeaders(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch {
    data = undefined;
  }
  if (!response.ok) {
    const message = (data as { error?: string } | undefined)?.error ?? (text.trim() || `${response.status} ${response.statusText}`);
    if (response.status === 401) for (const listener of tokenListeners) listener(message);
    throw new ApiError(message, response.status);
  }
  return data as T;
}

export const get = <T>(path: string) => api<T>('GET', path);
