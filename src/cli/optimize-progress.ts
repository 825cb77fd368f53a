// Owns the progress display of `switchboard optimize`: one bar per phase (generating, evaluating, deciding) with
// done/total and an ETA. On a terminal the bars are drawn with cli-progress on stderr; otherwise (logs, CI, pipes)
// each bar is plain lines, one per 10% step and one at the end, e.g. "evaluating get-sum: 40/120 (33%) ETA 12s".
import cliProgress from 'cli-progress';

export interface PhaseBar {
  /** `done` of the bar's total; `label` says what is being worked on (a tool name). */
  update(done: number, label?: string): void;
  /** Ends the bar (a terminal bar stays drawn at its last value). */
  stop(): void;
}

export interface PhaseBarOptions {
  stream?: NodeJS.WriteStream;
  /** Draw a terminal bar (default: whether the stream is a TTY). */
  tty?: boolean;
  label?: string;
}

export function phaseBar(phase: string, total: number, options: PhaseBarOptions = {}): PhaseBar {
  const stream = options.stream ?? process.stderr;
  return (options.tty ?? stream.isTTY === true) ? terminalBar(phase, total, stream, options.label ?? '') : plainBar(phase, total, stream, options.label ?? '');
}

function terminalBar(phase: string, total: number, stream: NodeJS.WriteStream, label: string): PhaseBar {
  const bar = new cliProgress.SingleBar(
    {
      format: `${phase.padEnd(10)} [{bar}] {value}/{total} {percentage}% | ETA {eta_formatted} | {label}`,
      stream,
      barsize: 28,
      hideCursor: true,
      etaBuffer: 50,
      fps: 5,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(Math.max(total, 1), 0, { label });
  let last = label;
  return {
    update(done, next) {
      last = next ?? last;
      bar.update(done, { label: last });
    },
    stop: () => bar.stop(),
  };
}

function plainBar(phase: string, total: number, stream: NodeJS.WriteStream, label: string): PhaseBar {
  const started = Date.now();
  let step = -1;
  let last = label;
  let ended = false;
  const line = (done: number) => {
    const eta = done > 0 ? ((Date.now() - started) / done) * (total - done) : 0;
    const pct = total > 0 ? Math.round((done / total) * 100) : 100;
    stream.write(`${phase}${last ? ` ${last}` : ''}: ${done}/${total} (${pct}%) ETA ${done >= total ? 0 : Math.ceil(eta / 1000)}s\n`);
  };
  return {
    update(done, next) {
      last = next ?? last;
      if (ended) return;
      if (done >= total) {
        ended = true;
        line(total);
        return;
      }
      const now = Math.floor((done / Math.max(total, 1)) * 10);
      if (now > step) {
        step = now;
        line(done);
      }
    },
    stop() {
      ended = true; // stopped early (an error): no line claims the phase finished
    },
  };
}
