// Test helper: runs the built CLI (dist/bundle/main.js, as bin/switchboard.js does) as a child process with an explicit --data-dir,
// so no test ever writes to the per-user data folder, and returns its exit code and output.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { CLI, REPO } from '../helpers/gateway.js';

const run = promisify(execFile);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], dataDir: string, timeoutMs = 60_000): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args, '--data-dir', dataDir], {
      cwd: REPO,
      timeout: timeoutMs,
      env: { ...process.env, NO_COLOR: '1', SWITCHBOARD_DATA_DIR: dataDir },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: unknown; stdout?: string; stderr?: string; message: string };
    return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout ?? '', stderr: e.stderr ?? e.message };
  }
}

/** Runs the CLI and parses its stdout as JSON; fails with the output when the exit code is not `expectCode`. */
export async function runCliJson<T>(args: string[], dataDir: string, expectCode = 0): Promise<T> {
  const result = await runCli(args, dataDir);
  if (result.code !== expectCode) {
    throw new Error(`switchboard ${args.join(' ')} exited with ${result.code} (expected ${expectCode}):\n${result.stderr}\n${result.stdout}`);
  }
  return JSON.parse(result.stdout) as T;
}
