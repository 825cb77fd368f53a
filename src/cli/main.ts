// Owns the `switchboard` command line: options shared by every command, dispatch, and exit codes
// (0 ok, 1 failure, 2 invalid configuration or usage).
import { Command, Option } from 'commander';
import { ProtocolError } from '@modelcontextprotocol/server';
import { ConfigError } from '../config/index.js';
import { LOG_LEVELS } from '../logging/logger.js';
import { VERSION } from '../gateway/gateway.js';
import { callCommand } from './call.js';
import { UsageError } from './inventory.js';
import { serveCommand } from './serve.js';
import { serversCommand } from './servers.js';
import { toolsCommand } from './tools.js';

function common(command: Command): Command {
  return command
    .option('-c, --config <path>', 'the .mcp.json to read', './.mcp.json')
    .option('--data-dir <dir>', 'where Switchboard writes its data (default: the per-user data folder)')
    .addOption(new Option('--log-level <level>', 'log level (logs go to stderr)').choices([...LOG_LEVELS]));
}

export function buildProgram(): Command {
  const program = new Command('switchboard')
    .description('One MCP server in front of all your MCP servers.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride();

  common(program.command('serve'))
    .description('run the gateway (stdio by default, or Streamable HTTP with --http)')
    .option('--stdio', 'serve over stdin/stdout (default)')
    .option('--http', 'serve Streamable HTTP')
    .option('--host <host>', 'HTTP bind address (default 127.0.0.1)')
    .option('--port <port>', 'HTTP port (default 3333; 0 picks a free one)')
    .action((opts) => serveCommand(opts));

  common(program.command('servers'))
    .description('list configured servers: transport, state, tool count, last error')
    .option('--json', 'print JSON')
    .action((opts) => serversCommand(opts));

  common(program.command('tools'))
    .description('list every tool under the name clients see')
    .option('--server <key>', 'only this server')
    .option('--json', 'print JSON')
    .action((opts) => toolsCommand(opts));

  common(program.command('call'))
    .description('call a tool by its exposed name; arguments as a JSON object')
    .argument('<name>', 'exposed tool name, e.g. everything_echo')
    .argument('[json]', 'arguments as JSON, e.g. \'{"message":"hi"}\'')
    .option('--json', 'print JSON (the default for results)')
    .action((name, json, opts) => callCommand(name, json, opts));

  return program;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await buildProgram().parseAsync(argv);
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
  if (error instanceof ConfigError || error instanceof UsageError) return 2;
  if (error instanceof ProtocolError) return 1;
  return 1;
}

await main(process.argv);
