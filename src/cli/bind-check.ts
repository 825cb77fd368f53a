// Owns refusing an HTTP bind that would let other machines in without client tokens.
import { isLoopbackHost } from '../http/loopback.js';
import { UsageError } from './inventory.js';

export function checkBind(host: string, hasClients: boolean, unauthenticatedAdmin: boolean): void {
  if (isLoopbackHost(host)) return;
  if (!hasClients) {
    throw new UsageError(
      `refusing to listen on ${host}: it is not a loopback address, so other machines could reach every tool without a token. ` +
        'Add client tokens first: run "switchboard token create <client> --write" (prints the token once and stores its hash in switchboard.clients), ' +
        'or bind to 127.0.0.1 (--host 127.0.0.1).',
    );
  }
  if (unauthenticatedAdmin) {
    throw new UsageError(`refusing to listen on ${host} with switchboard.http.unauthenticatedAdmin: true: it is allowed on loopback binds only. Remove it, or bind to 127.0.0.1.`);
  }
}
