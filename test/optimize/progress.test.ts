// The optimize command's per-phase progress: on a terminal a cli-progress bar with done/total, percentage, ETA and
// the tool being worked on; elsewhere plain lines (one per 10% step and one at the end) that logs and CI can keep.
// No assertion depends on timing: only the shape of the ETA is checked.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { phaseBar } from '../../src/cli/optimize-progress.js';

function capture(tty: boolean): { stream: NodeJS.WriteStream; text: () => string } {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream & { isTTY: boolean; columns: number };
  stream.isTTY = tty;
  stream.columns = 120;
  let text = '';
  (stream as unknown as PassThrough).on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('optimize progress bars', () => {
  it('writes plain lines off a terminal: one per 10% step, then the end with ETA 0s', () => {
    const out = capture(false);
    const bar = phaseBar('evaluating', 40, { stream: out.stream });
    for (let done = 0; done <= 40; done++) bar.update(done, done < 20 ? 'get-sum' : 'echo');
    bar.stop();
    const lines = out.text().trimEnd().split('\n');
    expect(lines).toHaveLength(11);
    expect(lines[0]).toMatch(/^evaluating get-sum: 0\/40 \(0%\) ETA \d+s$/);
    expect(lines[5]).toMatch(/^evaluating echo: 20\/40 \(50%\) ETA \d+s$/);
    expect(lines[10]).toBe('evaluating echo: 40/40 (100%) ETA 0s');
  });

  it('claims no finished phase when stopped early (an error)', () => {
    const out = capture(false);
    const bar = phaseBar('generating', 3, { stream: out.stream });
    bar.update(0, 'get-sum');
    bar.update(1, 'echo');
    bar.stop();
    bar.update(3, 'echo');
    expect(out.text()).not.toContain('(100%)');
    expect(out.text()).toContain('generating get-sum: 0/3 (0%)');
  });

  it('draws a bar on a terminal with done/total, percentage, ETA and the tool', () => {
    const out = capture(true);
    const bar = phaseBar('deciding', 2, { stream: out.stream });
    bar.update(0, 'get-sum');
    bar.update(2, 'echo');
    bar.stop();
    const plain = out.text().replace(/\x1b\[[0-9;?]*[A-Za-z]|\x1b[78]/g, '');
    expect(plain).toMatch(/deciding {3}\[█+\] 2\/2 100% \| ETA 0s \| echo/);
  });
});
