// Owns the two overlays the dashboard opens: a modal dialog (centered) and a drawer (from the right).
// Both close on Escape and on a click outside.
import type { ComponentChildren } from 'preact';
import { useEffect } from 'preact/hooks';

function useEscape(onClose: () => void) {
  useEffect(() => {
    const listener = (e: KeyboardEvent) => e.key === 'Escape' && onClose();
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, [onClose]);
}

export function Modal({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  useEscape(onClose);
  return (
    <div class="backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <div class="modal" role="dialog" aria-modal="true" aria-label={title}>
        <header class="overlay-head">
          <h2>{title}</h2>
          <button class="icon" aria-label="Close" onClick={onClose}>×</button>
        </header>
        {children}
      </div>
    </div>
  );
}

export function Drawer({ title, onClose, children }: { title: string; onClose: () => void; children: ComponentChildren }) {
  useEscape(onClose);
  return (
    <div class="backdrop" onClick={(e) => e.target === e.currentTarget && onClose()}>
      <aside class="drawer" role="dialog" aria-label={title}>
        <header class="overlay-head">
          <h2>{title}</h2>
          <button class="icon" aria-label="Close" onClick={onClose}>×</button>
        </header>
        <div class="drawer-body">{children}</div>
      </aside>
    </div>
  );
}
