// Owns one attempt to reach a server: an SDK client with the connection's handlers (notifications with
// the sessions they belong to, reverse requests, close, transport errors), its transport built from the
// config (a stdio child's stderr captured), the handshake within the connect timeout, and, when that
// fails, the client closed and the child reaped before a DialFailure says why. What a failure means for
// the connection (retry, needs a login) is the connection's business.
import { Client, type JSONRPCRequest } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/index.js';
import type { StoredTokenAuth } from '../auth/stored-token-auth.js';
import { isLoginRequired } from '../auth/errors.js';
import type { Logger } from '../logging/logger.js';
import { describeConnectError } from './connect-error.js';
import { versionNegotiationFor } from './downstream-era.js';
import { downstreamInitializeParams, GATEWAY_CLIENT_INFO } from './downstream-hello.js';
import { takeLogCallers } from './log-callers.js';
import type { CapabilityProfile } from './profile.js';
import type { StderrTail } from './stderr-tail.js';
import { buildTransport, type BuiltTransport } from './transport.js';

/** The largest message a stdio server may send (a 10 MB result plus JSON framing fits). */
const STDIO_MAX_MESSAGE_BYTES = 64 * 1024 * 1024;
/** Lets the stderr reader emit a child's last lines (it reads asynchronously) before they are quoted. */
const settleStderr = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface RawNotification {
  method: string;
  params?: Record<string, unknown>;
}

/** What the connection does with what arrives on the client; built once per connection. */
export interface DialHandlers {
  notification(notification: RawNotification, callers: readonly string[] | undefined): void;
  reverseRequest(request: JSONRPCRequest, signal: AbortSignal): Promise<never>;
  closed(client: Client): void;
  /** The transport is built (its child started, for stdio), before the handshake: its pid and exit become known. */
  built(transport: BuiltTransport): void;
}

export interface DialOptions {
  config: ServerConfig;
  profile: CapabilityProfile;
  auth: StoredTokenAuth | undefined;
  connectTimeoutMs: number;
  stderr: StderrTail;
  log: Logger;
  redact: (text: string) => string;
  handlers: DialHandlers;
  /** Closes a client and reaps its process (see process-tree.ts). */
  close(client: Client, pid: number | null): Promise<void>;
}

/** A dial that did not end connected: `transport` (invalid settings), `login` (the server wants one), `connect`. */
export class DialFailure extends Error {
  constructor(
    readonly kind: 'transport' | 'login' | 'connect',
    reason: string,
    readonly cause?: unknown,
  ) {
    super(reason);
    this.name = 'DialFailure';
  }
}

/** Connects a new client; on failure nothing of it is left running. Attach to the transport's messages after it returns (the handshake sets its onmessage). */
export async function dial(options: DialOptions): Promise<{ client: Client; built: BuiltTransport }> {
  const { config, handlers, log, redact } = options;
  const negotiation = versionNegotiationFor(config);
  const client = new Client({ ...GATEWAY_CLIENT_INFO }, { capabilities: options.profile.capabilities, ...negotiation });
  client.fallbackNotificationHandler = async (raw) => {
    const { notification, callers } = takeLogCallers(raw as RawNotification);
    handlers.notification(notification, callers);
  };
  client.fallbackRequestHandler = async (request: JSONRPCRequest, ctx) => handlers.reverseRequest(request, ctx.mcpReq.signal);
  client.onclose = () => handlers.closed(client);
  client.onerror = (error) => log.debug({ err: redact(error.message) }, 'transport error');

  let built: BuiltTransport;
  try {
    // The 2025 handshake the client will send: a server started early and sent the same is adopted.
    const initialize = negotiation.versionNegotiation ? undefined : downstreamInitializeParams(options.profile.capabilities as Record<string, unknown>);
    built = buildTransport(config, { maxMessageBytes: STDIO_MAX_MESSAGE_BYTES, auth: options.auth, log, initialize });
  } catch (error) {
    throw new DialFailure('transport', `invalid transport settings: ${(error as Error).message}`, error);
  }
  handlers.built(built);
  options.stderr.lines.length = 0; // only this run's last words explain its failure
  if (built.stderr) options.stderr.capture(built.stderr, log, redact);
  try {
    await client.connect(built.transport, { timeout: options.connectTimeoutMs });
  } catch (error) {
    if (isLoginRequired(error)) {
      await options.close(client, null);
      throw new DialFailure('login', (error as Error).message, error);
    }
    await settleStderr();
    const reason = redact(describeConnectError(config, error, options.stderr.lines, options.connectTimeoutMs, built.exit?.()));
    await options.close(client, built.pid?.() ?? null);
    throw new DialFailure('connect', reason, error);
  }
  return { client, built };
}
