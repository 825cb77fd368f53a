// Owns the size of the stdio gateway's young generation. A stdio gateway runs once per client window
// and relays one client's small messages; V8 grows the young generation's semi-spaces to 16 MB each
// (32 MB committed) after a few thousand calls, which is RSS such a relay does not use well: with the
// semi-spaces kept at their initial 1 MB, the stdio face measured ~30 MB less RSS after 2,000 calls
// (docs/performance.md, "Young generation"). The HTTP face keeps V8's default: it is one process for
// many clients, and its requests live across several scavenges, so a small young generation only
// promotes their garbage to the old generation (measured: old space swinging between 40 and 80 MB).
// A user's own --max-semi-space-size (or any semi-space flag, on the command line or in NODE_OPTIONS) wins.
// Creating a worker thread resets V8's flags to their defaults (measured on Node 20 and 22), so
// serve applies this again once the call journal's worker has started.
import v8 from 'node:v8';

const SEMI_SPACE_FLAG = /semi[-_]space/;

/** Keeps V8's semi-spaces at their initial size from now on, unless the user sized them. */
export function keepYoungGenerationSmall(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): boolean {
  if (execArgv.some((arg) => SEMI_SPACE_FLAG.test(arg)) || SEMI_SPACE_FLAG.test(nodeOptions)) return false;
  // Read by V8 each time it considers growing the semi-spaces, so it applies after start-up too
  // (unlike --max-semi-space-size, which only takes effect on the command line).
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
