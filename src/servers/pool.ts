// Owns the ServerPool: the configured servers and their connections (one per capability profile),
// applying configuration changes live (servers added, removed, restarted) and relaying events.
import { EventEmitter } from 'node:events';
import type { ServerConfig } from '../config/index.js';
import { moduleLogger } from '../logging/logger.js';
import { Connection, type RawNotification, type ResilienceOptions, type ReverseRequestHandler } from './connection.js';
import { serverIdentity } from './identity.js';
import type { CapabilityProfile } from './profile.js';
import type { CredentialStore } from '../auth/credential-store.js';

export interface PoolOptions {
  requestTimeoutMs: number;
  resilience?: ResilienceOptions;
  onReverseRequest?: ReverseRequestHandler;
  /** Stored OAuth logins for remote servers (src/auth). */
  credentials?: CredentialStore;
}

interface ServerEntry {
  config: ServerConfig;
  /** serverIdentity(config), computed once per configuration. */
  identity: string;
  connections: Map<string, Connection>;
}

function entryOf(config: ServerConfig): ServerEntry {
  return { config, identity: serverIdentity(config), connections: new Map() };
}

export interface PoolEvents {
  /** `callers`: for a log message, the client sessions that had requests running when it arrived (log-callers.ts). */
  notification: [connection: Connection, notification: RawNotification, callers: readonly string[] | undefined];
  closed: [connection: Connection];
  /** A connection's state changed. */
  state: [connection: Connection];
  /** A connection came up; `again` when it had been up before (a restart). */
  up: [connection: Connection, again: boolean];
  /** Server keys were added, removed or restarted. */
  changed: [change: { added: string[]; removed: string[]; restarted: string[] }];
}

export class ServerPool extends EventEmitter<PoolEvents> {
  private readonly entries = new Map<string, ServerEntry>();
  private readonly log = moduleLogger('pool');

  constructor(private readonly options: PoolOptions) {
    super();
  }

  /** True when `test` holds for every enabled server's key (without copying the keys). */
  everyKey(test: (key: string) => boolean): boolean {
    for (const key of this.entries.keys()) if (!test(key)) return false;
    return true;
  }

  /** Enabled server keys, in configuration order. */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  config(key: string): ServerConfig | undefined {
    return this.entries.get(key)?.config;
  }

  /** Whether the server refused us for good and nobody has logged in since (`switchboard login <key>`). */
  needsLogin(key: string): boolean {
    const config = this.entries.get(key)?.config;
    return config !== undefined && config.transport !== 'stdio' && this.options.credentials !== undefined && this.options.credentials.loginNeeded(config);
  }

  /** The server's identity now (src/servers/identity.ts): what its cached state and metrics belong to. */
  identity(key: string): string | undefined {
    return this.entries.get(key)?.identity;
  }

  /** Every configured server's identity now, by key (the scope of its metrics). */
  identities(): Map<string, string> {
    return new Map([...this.entries].map(([key, entry]) => [key, entry.identity]));
  }

  /** The connection to `key` for `profile`, created (not started) on first use. */
  connection(key: string, profile: CapabilityProfile): Connection | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    let connection = entry.connections.get(profile.key);
    if (!connection) {
      connection = new Connection(entry.config, profile, this.options, entry.identity);
      const created = connection;
      created.on('notification', (n: RawNotification, callers: readonly string[] | undefined) => this.emit('notification', created, n, callers));
      created.on('closed', () => this.emit('closed', created));
      created.on('up', (again: boolean) => this.emit('up', created, again));
      created.on('state', () => this.emit('state', created));
      entry.connections.set(profile.key, created);
    }
    return connection;
  }

  /** Every live connection, optionally of one server. */
  connections(key?: string): Connection[] {
    const entries = key ? [this.entries.get(key)].filter((e): e is ServerEntry => Boolean(e)) : [...this.entries.values()];
    return entries.flatMap((e) => [...e.connections.values()]);
  }

  /**
   * Applies a new server list: new keys are added, missing keys stopped and removed, keys whose
   * settings changed are restarted (their connections are replaced). Disabled servers count as absent.
   */
  async apply(servers: ServerConfig[]): Promise<{ added: string[]; removed: string[]; restarted: string[] }> {
    const next = new Map(servers.filter((s) => !s.disabled).map((s) => [s.key, s]));
    const added: string[] = [];
    const removed: string[] = [];
    const restarted: string[] = [];
    const stops: Promise<void>[] = [];
    for (const [key, entry] of this.entries) {
      const replacement = next.get(key);
      if (!replacement) {
        removed.push(key);
        this.entries.delete(key);
        stops.push(...[...entry.connections.values()].map((c) => c.stop()));
      } else if (JSON.stringify(replacement) !== JSON.stringify(entry.config)) {
        restarted.push(key);
        stops.push(...[...entry.connections.values()].map((c) => c.stop()));
        this.entries.set(key, entryOf(replacement));
      }
    }
    // Rebuild in configuration order so listings follow the file.
    const ordered = new Map<string, ServerEntry>();
    for (const [key, config] of next) {
      const existing = this.entries.get(key);
      if (!existing) added.push(key);
      ordered.set(key, existing ?? entryOf(config));
    }
    this.entries.clear();
    for (const [key, entry] of ordered) this.entries.set(key, entry);
    await Promise.all(stops);
    if (added.length || removed.length || restarted.length) {
      this.log.info({ added, removed, restarted }, 'servers changed');
      this.emit('changed', { added, removed, restarted });
    }
    return { added, removed, restarted };
  }

  /** Stops and forgets one server's connection for one profile, if there is one. */
  async releaseConnection(key: string, profileKey: string): Promise<void> {
    const entry = this.entries.get(key);
    const connection = entry?.connections.get(profileKey);
    if (!entry || !connection) return;
    entry.connections.delete(profileKey);
    await connection.stop();
  }

  /** Stops and forgets every connection of one capability profile; returns them. */
  async releaseProfile(profileKey: string, keep: ReadonlySet<string> = new Set()): Promise<Connection[]> {
    const released: Connection[] = [];
    for (const [key, entry] of this.entries) {
      const connection = entry.connections.get(profileKey);
      if (!connection || keep.has(key)) continue;
      entry.connections.delete(profileKey);
      released.push(connection);
    }
    await Promise.all(released.map((c) => c.stop()));
    return released;
  }

  /** Stops every connection; the pool is empty afterwards. */
  async close(): Promise<void> {
    const all = this.connections();
    this.entries.clear();
    await Promise.all(all.map((c) => c.stop()));
  }
}
