// Owns serving the web dashboard: the files Vite built into dist/ui (shipped in the package), at /ui/,
// with `/` and `/ui` redirecting there. index.html is revalidated on every load (no-cache); the files
// under assets/ carry a content hash in their names and are cached for a year (immutable). Only names
// of built files are served: no directory listing, no path outside dist/ui. The dashboard's pages hold
// no data (everything comes from the admin API, which checks tokens), so they are served without one.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Hono } from 'hono';
import type { AuthVariables } from './auth.js';

/** dist/ui next to this module's dist/http. */
export const DASHBOARD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../ui');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};
const SAFE_PATH = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;
/** The page may load only its own files and talk only to this gateway; no framing (clickjacking). */
const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function registerDashboardRoute(app: Hono<{ Variables: AuthVariables }>, directory: string = DASHBOARD_DIR): void {
  const cache = new Map<string, Buffer>();
  const load = async (relative: string): Promise<Buffer | undefined> => {
    const hit = cache.get(relative);
    if (hit) return hit;
    try {
      const body = await readFile(path.join(directory, relative));
      cache.set(relative, body);
      return body;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EISDIR') return undefined;
      throw error;
    }
  };

  app.get('/', (c) => c.redirect('/ui/', 302));
  app.get('/ui', (c) => c.redirect('/ui/', 301));
  app.get('/ui/*', async (c) => {
    const relative = c.req.path.slice('/ui/'.length) || 'index.html';
    if (!SAFE_PATH.test(relative) || relative.split('/').includes('..')) return c.json({ error: `Not found: ${c.req.path}` }, 404);
    const body = await load(relative);
    if (!body) {
      if (relative === 'index.html') {
        return c.text(`The dashboard is not built: ${directory} has no index.html. Run "npm run build" in the Switchboard checkout (installed packages ship it built).\n`, 503);
      }
      return c.json({ error: `Not found: ${c.req.path}` }, 404);
    }
    const type = CONTENT_TYPES[path.extname(relative)] ?? 'application/octet-stream';
    const headers: Record<string, string> = {
      'content-type': type,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
    };
    if (relative.endsWith('.html')) {
      headers['content-security-policy'] = CONTENT_SECURITY_POLICY;
      headers['x-frame-options'] = 'DENY';
    }
    return c.body(new Uint8Array(body), 200, headers);
  });
}
