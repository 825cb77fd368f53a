// Owns SIGTERM, SIGINT and SIGHUP of `serve` until serve's own shutdown is in place (serve.ts hands them
// over). Without it, a signal while the gateway still loads ends the process by the signal's
// default action, which runs no exit hook: a server started early (serve-prestart.ts), or one the
// pool started at boot, would outlive the gateway. Here the signal stops the servers started early
// (stdin closed, then SIGTERM and SIGKILL after their grace, servers/prestart.ts) and exits with 0,
// as serve's own shutdown does; the exit hook (servers/process-tree.ts) SIGKILLs any tracked tree
// still running. Light on purpose: imported before the gateway loads.
import { discardPrestarted } from '../servers/prestart.js';

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
let stopping = false;

function onSignal(signal: NodeJS.Signals): void {
  if (stopping) return; // a second signal while the servers stop: the stop under way ends the process
  stopping = true;
  process.stderr.write(`switchboard: ${signal} while starting; stopping the servers started early and exiting\n`);
  void discardPrestarted(undefined).finally(() => process.exit(0));
}

/** From now until handOverSignals, SIGTERM, SIGINT and SIGHUP stop the servers started early and exit. */
export function watchEarlySignals(): void {
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

/** Serve's shutdown takes the signals from here on. */
export function handOverSignals(): void {
  for (const signal of SIGNALS) process.off(signal, onSignal);
}
