// Test helpers for the terminal UI: renders the real App (ink-testing-library) against a real gateway's admin API,
// sends keys as a terminal would (escape sequences, control characters) and waits for a frame to show something.
import { createElement } from 'react';
import { render } from 'ink-testing-library';
import { App } from '../../src/tui/app.js';
import { AdminClient } from '../../src/tui/client.js';
import { KeysProvider } from '../../src/tui/hooks.js';
import { waitFor } from './gateway.js';

export const KEYS = { up: '\x1b[A', down: '\x1b[B', left: '\x1b[D', right: '\x1b[C', enter: '\r', escape: '\x1b', tab: '\t', space: ' ', backspace: '\x7f', ctrl: (letter: string) => String.fromCharCode(letter.toLowerCase().charCodeAt(0) - 96) };

export interface RenderedTui {
  frame(): string;
  press(keys: string): void;
  /** Waits until the frame matches (a string it contains, or a predicate); returns the frame. */
  until(match: string | RegExp | ((frame: string) => boolean), timeoutMs?: number): Promise<string>;
  unmount(): void;
}

/** The frame with each box line's right border, line break and the next line's left border and indent removed. */
export function unwrapBoxLines(frame: string): string {
  return frame.replace(/\s*│\n│\s*/g, '');
}

export function renderTui(url: string, options: { exportDir?: string; token?: string } = {}): RenderedTui {
  const client = new AdminClient(url, options.token);
  const instance = render(createElement(KeysProvider, null, createElement(App, { client, target: { url, source: 'flag' }, ...(options.exportDir && { exportDir: options.exportDir }) })));
  const frame = () => instance.lastFrame() ?? '';
  return {
    frame,
    press: (keys) => instance.stdin.write(keys),
    until: (match, timeoutMs = 20_000) =>
      waitFor(
        () => {
          const f = frame();
          // A string is also found when a modal's box wrapped it across lines (a long path in a field wraps where
          // the terminal width falls, which depends on the folder the tests run from).
          const ok = typeof match === 'string' ? f.includes(match) || unwrapBoxLines(f).includes(match) : match instanceof RegExp ? match.test(f) : match(f);
          return ok && f;
        },
        `the TUI to show ${String(match)}; last frame:\n${frame()}`,
        timeoutMs,
      ).catch((error: Error) => {
        throw new Error(`${error.message.split('; last frame')[0]}; last frame:\n${frame()}`);
      }),
    unmount: () => instance.unmount(),
  };
}
