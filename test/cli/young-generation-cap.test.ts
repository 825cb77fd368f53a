// The HTTP face's cap on V8's young generation, in real V8: a process that churns allocations with
// survivors (what grows the young generation) keeps its semi-spaces at the cap with it, and grows them
// past it without it; and which command lines and settings turn it on.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SEMI_SPACE_CAP_BYTES, capFromEnvironment, servesHttp } from '../../src/cli/young-generation-cap.js';
import { REPO } from '../helpers/gateway.js';

const MODULE = pathToFileURL(path.join(REPO, 'dist/cli/young-generation-cap.js')).href;
const MB = 1024 * 1024;

/**
 * Churns ~600 MB of short-lived objects, some kept alive across collections; prints one semi-space's
 * largest size seen. `worker`: a worker thread starts after the cap (which resets V8's flags).
 */
function largestSemiSpace(capMb: number | undefined, worker = false): number {
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    const { capYoungGeneration } = await import(${JSON.stringify(MODULE)});
    ${capMb === undefined ? '' : `capYoungGeneration(${capMb * MB});`}
    ${worker ? "const w = new Worker('0', { eval: true }); await new Promise((r) => w.on('exit', r));" : ''}
    const semi = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2;
    let largest = semi();
    const kept = [];
    for (let i = 0; i < 3_000_000; i++) {
      const item = { i, text: 'x' + i, list: [i, i + 1] };
      if (i % 7 === 0) kept.push(item);
      if (kept.length > 20_000) kept.splice(0, 10_000);
      if (i % 10_000 === 0) { await new Promise((r) => setImmediate(r)); largest = Math.max(largest, semi()); }
    }
    console.log(largest);
  `;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim());
}

describe('the young generation cap', () => {
  it('keeps each semi-space at the cap in real V8, where V8 alone grows it past the cap', () => {
    const uncapped = largestSemiSpace(undefined);
    const capped = largestSemiSpace(2);
    expect(uncapped).toBeGreaterThan(2 * MB); // the workload does grow it: the check below can fail
    expect(capped).toBeLessThanOrEqual(2 * MB);
    expect(capped).toBeGreaterThan(0);
    // A worker thread resets V8's flags; the cap sets its own again after the next collection.
    expect(largestSemiSpace(2, true)).toBeLessThanOrEqual(2 * MB);
    // Not a power of two: the semi-spaces stop at the last doubling within it.
    expect(largestSemiSpace(3)).toBeLessThanOrEqual(3 * MB);
  }, 90_000);

  it('is on for serve --http and the daemon, off for serve --stdio and other commands', () => {
    const argv = (...args: string[]) => ['node', 'main.js', ...args];
    expect(servesHttp(argv('serve', '--http', '--port', '0'))).toBe(true);
    expect(servesHttp(argv('serve', '--http', '--daemon'))).toBe(true);
    expect(servesHttp(argv('serve', '--stdio'))).toBe(false);
    expect(servesHttp(argv('serve'))).toBe(false);
    expect(servesHttp(argv('metrics', '--http'))).toBe(false);
  });

  it('takes its size from SWITCHBOARD_SEMI_SPACE_CAP_MB: whole MB, 0 for V8 own growth, anything else the default', () => {
    expect(capFromEnvironment(undefined)).toBe(SEMI_SPACE_CAP_BYTES);
    expect(capFromEnvironment('')).toBe(SEMI_SPACE_CAP_BYTES);
    expect(capFromEnvironment('4')).toBe(4 * MB);
    expect(capFromEnvironment('0')).toBeUndefined();
    expect(capFromEnvironment('lots')).toBe(SEMI_SPACE_CAP_BYTES);
    expect(capFromEnvironment('-1')).toBe(SEMI_SPACE_CAP_BYTES);
  });
});
