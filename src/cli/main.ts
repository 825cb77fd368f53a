// Owns running the `switchboard` command line (its commands are defined in program.ts): dispatch,
// and exit codes (0 ok, 1 failure, 2 invalid configuration or usage).
// First, before anything heavy loads: V8's code cache for our modules on Node 22+ (compile-cache.ts,
// which imports young-generation-cap.ts: `serve --http` caps V8's young generation), and `serve`
// starts the servers its session will need (serve-prestart.ts).
import './compile-cache.js';
import './serve-prestart.js';
import { ConfigError } from '../config/errors.js';
import { QueryBoundError } from '../store/query-bounds.js';
import { UsageError } from './errors.js';
import { buildProgram, isCommandName } from './program.js';

export async function main(argv: string[]): Promise<void> {
  try {
    const named = argv[2];
    await buildProgram(isCommandName(named) ? named : undefined).parseAsync(argv);
  } catch (error) {
    process.exitCode = exitCodeFor(error);
    const commanderCode = (error as { code?: string }).code;
    if (commanderCode?.startsWith('commander.')) return; // commander printed it already
    process.stderr.write(`switchboard: ${(error as Error).message}\n`);
    // Nothing else runs after a failed command; do not let a stray handle keep the process up.
    setTimeout(() => process.exit(), 200).unref();
  }
}

function exitCodeFor(error: unknown): number {
  const code = (error as { code?: string; exitCode?: number }).code;
  if (code === 'commander.helpDisplayed' || code === 'commander.version' || code === 'commander.help') return 0;
  if (typeof code === 'string' && code.startsWith('commander.')) return 2;
  if (error instanceof ConfigError || error instanceof UsageError || error instanceof QueryBoundError) return 2;
  return 1;
}

await main(process.argv);
