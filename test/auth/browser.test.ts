// Which browser `switchboard login` starts: $BROWSER (none: no browser), else the platform's opener,
// and on Linux only with a display (over SSH the printed URL is the way).
import { describe, expect, it } from 'vitest';
import { browserCommand } from '../../src/auth/browser.js';

const URL_ = 'http://127.0.0.1:1/authorize?a=1&b=2';

describe('browserCommand', () => {
  it('follows $BROWSER, and BROWSER=none turns the browser off', () => {
    expect(browserCommand(URL_, { BROWSER: 'firefox' }, 'linux')).toEqual({ command: 'firefox', args: [URL_] });
    expect(browserCommand(URL_, { BROWSER: 'none', DISPLAY: ':0' }, 'linux')).toBeUndefined();
  });

  it('uses open, start or xdg-open, the last only with a display', () => {
    expect(browserCommand(URL_, {}, 'darwin')).toEqual({ command: 'open', args: [URL_] });
    expect(browserCommand(URL_, {}, 'win32')).toEqual({ command: 'cmd', args: ['/c', 'start', '""', 'http://127.0.0.1:1/authorize?a=1^&b=2'] });
    expect(browserCommand(URL_, { DISPLAY: ':0' }, 'linux')).toEqual({ command: 'xdg-open', args: [URL_] });
    expect(browserCommand(URL_, { WAYLAND_DISPLAY: 'wayland-0' }, 'linux')).toEqual({ command: 'xdg-open', args: [URL_] });
    expect(browserCommand(URL_, {}, 'linux')).toBeUndefined();
  });
});
