// Owns the small pieces every view uses: state badges, error and empty notices, a copy button.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

const TONE: Record<string, string> = {
  connected: 'good', ok: 'good', degraded: 'warn', connecting: 'warn', 'circuit-open': 'bad', failed: 'bad',
  tool_error: 'bad', protocol_error: 'bad', timeout: 'bad', server_down: 'bad', cancelled: 'muted', configured: 'muted', stopped: 'muted',
};

export function Badge({ value, label }: { value: string; label?: string }) {
  return <span class={`badge ${TONE[value] ?? 'muted'}`}>{label ?? value}</span>;
}

export function ErrorNote({ message }: { message: string | undefined }) {
  if (!message) return null;
  return <p class="error-note" role="alert">{message}</p>;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API unavailable (plain http on another host): fall back to a selection copy.
      const area = document.createElement('textarea');
      area.value = text;
      document.body.append(area);
      area.select();
      document.execCommand('copy');
      area.remove();
    }
    setDone(true);
    setTimeout(() => setDone(false), 1500);
  };
  return <button class="small" onClick={copy}>{done ? 'Copied' : label}</button>;
}
