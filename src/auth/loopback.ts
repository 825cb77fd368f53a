// Owns the loopback redirect of `switchboard login` (RFC 8252): an HTTP server on 127.0.0.1 that
// takes one GET /callback, checks its `state`, and hands over the authorization code (or the
// authorization server's error), answering the browser with a short page.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface CallbackResult {
  code: string;
  /** RFC 9207 `iss`, when the authorization server sent it. */
  iss?: string;
}

export interface LoopbackRedirect {
  redirectUrl: string;
  port: number;
  /** The callback, once; rejects on a wrong state, an authorization error, or the timeout. */
  wait(expectedState: string, timeoutMs: number): Promise<CallbackResult>;
  close(): Promise<void>;
}

function page(title: string, text: string): string {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>${escape(title)}</title><body style="font-family:sans-serif;margin:3em"><h1>${escape(title)}</h1><p>${escape(text)}</p></body>\n`;
}

/** Listens on 127.0.0.1:`port` (0: any free port). */
export async function listenForCallback(port: number): Promise<LoopbackRedirect> {
  let settle: { resolve(result: CallbackResult): void; reject(error: Error): void; state: string } | undefined;
  const early: Array<(s: NonNullable<typeof settle>) => void> = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method !== 'GET' || url.pathname !== '/callback') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    const answer = (s: NonNullable<typeof settle>) => {
      const q = url.searchParams;
      const fail = (status: number, message: string) => {
        res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page('Switchboard: login failed', `${message} You can close this tab.`));
        s.reject(new Error(message));
      };
      if (q.get('state') !== s.state) return fail(400, 'The answer does not belong to this login (its state does not match), so it was not used.');
      const error = q.get('error');
      if (error) return fail(400, `The authorization server said ${error}${q.get('error_description') ? `: ${q.get('error_description')}` : ''}.`);
      const code = q.get('code');
      if (!code) return fail(400, 'The answer carries no authorization code.');
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page('Switchboard: logged in', 'Switchboard received the authorization. You can close this tab.'));
      s.resolve({ code, ...(q.get('iss') && { iss: q.get('iss')! }) });
    };
    if (settle) answer(settle);
    else early.push(answer);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actual = (server.address() as AddressInfo).port;
  return {
    port: actual,
    redirectUrl: `http://127.0.0.1:${actual}/callback`,
    wait(expectedState, timeoutMs) {
      return new Promise<CallbackResult>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
        settle = {
          state: expectedState,
          resolve: (r) => {
            clearTimeout(timer);
            resolve(r);
          },
          reject: (e) => {
            clearTimeout(timer);
            reject(e);
          },
        };
        for (const answer of early.splice(0)) answer(settle);
      });
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
