// serve keeps V8's young generation at its initial size (src/cli/young-generation.ts): checked in real
// Node processes, since it relies on V8 reading the growth flag at run time and on a worker thread's
// start resetting it (which is why serve applies it again once the call journal's worker runs).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { keepYoungGenerationSmall } from '../../src/cli/young-generation.js';

const MODULE = new URL('../../dist/cli/young-generation.js', import.meta.url).href;

/** The new space's committed MB after allocating ~100 MB of short-lived objects in a fresh process. */
function newSpaceMb(script: string, nodeArgs: string[] = []): number {
  const program = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { keepYoungGenerationSmall } from ${JSON.stringify(MODULE)};
    ${script}
    const keep = [];
    for (let i = 0; i < 3e6; i++) { const o = { a: i, b: 'x' + i }; if (i % 1000 === 0) keep.push(o); }
    const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
    process.stdout.write(String(space.space_size / 2 ** 20));
    process.exit(0);`;
  return Number(execFileSync(process.execPath, [...nodeArgs, '--input-type=module', '-e', program], { encoding: 'utf8' }));
}

describe('young generation kept small', () => {
  it('keeps the semi-spaces at their initial size, also after a worker thread starts when applied again once it runs', () => {
    expect(newSpaceMb('')).toBeGreaterThan(8); // V8's own growth, the baseline this guards against
    expect(newSpaceMb('keepYoungGenerationSmall();')).toBeLessThanOrEqual(4);
    const withWorker = (again: boolean) => `
      keepYoungGenerationSmall();
      const worker = new Worker('setTimeout(() => {}, 2000)', { eval: true });
      await new Promise((resolve) => worker.once('online', () => { ${again ? 'keepYoungGenerationSmall();' : ''} resolve(); }));`;
    expect(newSpaceMb(withWorker(false))).toBeGreaterThan(8); // the reset serve works around
    expect(newSpaceMb(withWorker(true))).toBeLessThanOrEqual(4);
  });

  it("leaves the user's own semi-space flag alone", () => {
    expect(keepYoungGenerationSmall(['--max-semi-space-size=8'], '')).toBe(false);
    expect(keepYoungGenerationSmall([], '--max-old-space-size=512 --max-semi-space-size=8')).toBe(false);
    expect(newSpaceMb('keepYoungGenerationSmall();', ['--max-semi-space-size=8'])).toBeGreaterThan(8);
  });
});
