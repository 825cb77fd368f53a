// Owns SIGTERM, SIGINT and SIGHUP of `serve` until serve's own shutdown is in place (serve.ts takes
// them with handOverSignals). Without it, a signal while the gateway still loads ends the process by
// the signal's default action, which runs no exit hook: a server started early (serve-prestart.ts)
// would outlive the gateway. Here a signal stops the servers started early (stdin closed, then
// SIGTERM and SIGKILL after their grace, servers/prestart.ts) and exits. If serve finishes loading
// meanwhile, it takes the signal over and runs its own shutdown instead, which stops whatever it
// started too. A second signal exits at once; the exit hook (servers/process-tree.ts) SIGKILLs any
// tracked tree still running. Light on purpose: imported before the gateway loads.
import { writeSync } from 'node:fs';
import { discardPrestarted } from '../servers/prestart.js';

/** The signals that stop `serve`, here and in its own shutdown (serve.ts). */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
/** The signal being handled here, until serve takes it over. */
let pending: NodeJS.Signals | undefined;
let handedOver = false;

function onSignal(signal: NodeJS.Signals): void {
  // process.exit() without a code: a failed start (main.ts set the exit code) keeps its code, else 0.
  if (pending) return void process.exit(); // a second signal while the servers stop
  pending = signal;
  try {
    // Synchronous, and never fatal: the client that went away may have closed the other end.
    writeSync(2, `switchboard: ${signal} while starting; stopping the servers started early and exiting\n`);
  } catch {
    // nowhere to say it
  }
  void discardPrestarted(undefined).finally(() => {
    if (!handedOver) process.exit();
  });
}

/** From now until handOverSignals, SIGTERM, SIGINT and SIGHUP stop the servers started early and exit. */
export function watchEarlySignals(): void {
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
}

/** Serve's shutdown takes the signals from here on; returns the signal that came meanwhile, for it to act on. */
export function handOverSignals(): NodeJS.Signals | undefined {
  for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
  handedOver = true;
  return pending;
}
