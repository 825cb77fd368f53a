// Owns the shim's own entry point: `switchboard connect` is started by a client for every window,
// so bin/switchboard.js sends it here, past the full command line (commander and every command's
// options), and its flags are read with node's parseArgs. The same flags as `switchboard connect
// --help` lists; anything else goes to the full command line for its usage error.
import { parseArgs } from 'node:util';
import { connectCommand } from './connect.js';
import { UsageError } from './errors.js';

const MODES = ['passthrough', 'toolset', 'meta', 'auto'];

export async function connectMain(argv: string[]): Promise<boolean> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        config: { type: 'string', short: 'c', default: './.mcp.json' },
        'data-dir': { type: 'string' },
        'log-level': { type: 'string' },
        toolset: { type: 'string' },
        mode: { type: 'string' },
        server: { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch {
    return false; // --help, a typo: the full command line explains
  }
  if (values.mode !== undefined && !MODES.includes(values.mode as string)) return false;
  try {
    await connectCommand({
      config: values.config as string,
      ...(values['data-dir'] !== undefined && { dataDir: values['data-dir'] as string }),
      ...(values['log-level'] !== undefined && { logLevel: values['log-level'] as string }),
      ...(values.toolset !== undefined && { toolset: values.toolset as string }),
      ...(values.mode !== undefined && { mode: values.mode as string }),
      ...(values.server !== undefined && { server: values.server as string }),
    });
  } catch (error) {
    process.stderr.write(`switchboard: ${(error as Error).message}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
  return true;
}
