// Owns running the HTTP face on a socket: binding (127.0.0.1 by default), the bound URL, and a
// clean close that ends every session first.
import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import type { Gateway } from '../gateway/gateway.js';
import { createApp } from './app.js';
import type { Mode } from '../gateway/view.js';
import type { ClientRegistry } from './clients.js';
import type { LimitSettings } from '../config/index.js';
import type { InboundEraSetting } from '../gateway/era.js';

export interface HttpFaceOptions {
  host: string;
  port: number;
  allowedHosts: string[];
  allowedOrigins: string[];
  sessionIdleMs: number;
  mode?: Mode;
  clients?: ClientRegistry;
  unauthenticatedAdmin?: boolean;
  limits?: LimitSettings;
  /** /mcp serves exactly this saved toolset (overrides mode). */
  toolset?: string;
  /** Serve 2026-07-28 requests next to 2025 sessions (auto, the default) or 2025 sessions only. */
  inboundEra?: InboundEraSetting;
  /** The config file the admin API may write (added servers, persisted tool selections). */
  configFile?: string;
}

export interface RunningHttpFace {
  url: string;
  port: number;
  close(): Promise<void>;
}

export function startHttpFace(gateway: Gateway, options: HttpFaceOptions): Promise<RunningHttpFace> {
  const { app, sessions } = createApp(gateway, { ...options, boundHost: options.host });
  return new Promise((resolve, reject) => {
    let server: ServerType;
    const onError = (error: Error) => reject(error);
    server = serve({ fetch: app.fetch, hostname: options.host, port: options.port }, (info: AddressInfo) => {
      server.off('error', onError);
      const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
      resolve({
        url: `http://${host}:${info.port}`,
        port: info.port,
        close: async () => {
          await sessions.close();
          await new Promise<void>((done) => {
            server.close(() => done());
            (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
          });
        },
      });
    });
    server.once('error', onError);
  });
}
