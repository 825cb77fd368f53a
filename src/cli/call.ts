// Owns `switchboard call <exposed-name> [json-args]`: one tool call through the gateway, result as JSON.
import { closeMatches } from '../catalog/naming.js';
import { BARE_PROFILE } from '../servers/profile.js';
import { printJson } from './format.js';
import type { CallOutcome } from '../store/index.js';
import { UsageError, withInventory } from './inventory.js';
import type { CommonOptions } from './context.js';

export async function callCommand(name: string, json: string | undefined, options: CommonOptions): Promise<void> {
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (error) {
      throw new UsageError(`Arguments must be a JSON object, e.g. '{"message": "hi"}': ${(error as Error).message}`);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new UsageError('Arguments must be a JSON object, e.g. \'{"message": "hi"}\'');
  }
  await withInventory(options, async ({ gateway, catalog }) => {
    const entry = catalog.toolTable.resolve(name);
    if (!entry) {
      const suggestions = closeMatches(name, catalog.toolTable.entries().map((e) => e.exposed));
      throw new UsageError(`Unknown tool "${name}".${suggestions.length ? ` Did you mean: ${suggestions.join(', ')}?` : ' Run "switchboard tools" to list them.'}`);
    }
    const connection = gateway.pool.connection(entry.serverKey, BARE_PROFILE)!;
    const startedAt = Date.now();
    const record = (outcome: CallOutcome, errorMessage?: string) =>
      gateway.recordCall({ server: entry.serverKey, identity: connection.identity, tool: entry.originalName, session: 'cli', startedAt, durationMs: Date.now() - startedAt, outcome, ...(errorMessage && { errorMessage }) });
    let result;
    try {
      result = await connection.request('tools/call', { name: entry.originalName, arguments: args });
    } catch (error) {
      record('protocol_error', (error as Error).message);
      throw error;
    }
    record(result.isError === true ? 'tool_error' : 'ok');
    printJson(result);
    if (result.isError === true) process.exitCode = 1;
  });
}
