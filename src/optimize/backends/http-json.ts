// Owns the one HTTP call model backends make: POST JSON with a timeout, every failure turned into a BackendError
// that names the backend and the URL (unreachable, timed out, refused key, bad answer).
import { BackendError } from './backend.js';

export async function postJson(backend: string, url: string, headers: Record<string, string>, body: unknown, timeoutMs: number, signal?: AbortSignal): Promise<Record<string, unknown>> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    if (timeout.aborted) throw new BackendError(backend, `${url} did not answer within ${timeoutMs} ms (raise "timeoutMs")`, { cause: error });
    throw new BackendError(backend, `cannot reach ${url} (${cause}); check "baseUrl" and that the endpoint is running`, { cause: error });
  }
  const text = await response.text();
  if (response.status === 401 || response.status === 403) throw new BackendError(backend, `${url} refused the API key (HTTP ${response.status}); check the variable named in "apiKeyEnv"`);
  if (!response.ok) throw new BackendError(backend, `${url} answered HTTP ${response.status}: ${text.slice(0, 300)}`);
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new BackendError(backend, `${url} answered with something that is not JSON: ${text.slice(0, 200)}`, { cause: error });
  }
}

/** Tool names the APIs accept (^[a-zA-Z0-9_-]{1,64}$), with the way back to the original names. */
export function apiNames(names: readonly string[]): { toApi: Map<string, string>; fromApi: Map<string, string> } {
  const toApi = new Map<string, string>();
  const fromApi = new Map<string, string>();
  for (const name of names) {
    let api = name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 60) || 'tool';
    for (let i = 2; fromApi.has(api); i++) api = `${api.slice(0, 58)}_${i}`;
    toApi.set(name, api);
    fromApi.set(api, name);
  }
  return { toApi, fromApi };
}

export const SELECTION_SYSTEM_PROMPT =
  'You are an assistant with tools. If one of the tools fits the user\'s request, call it; otherwise answer without calling a tool.';
