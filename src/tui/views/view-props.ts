// Owns the props every view of the terminal UI gets from the frame (app.tsx), in a module of their own so the
// views and the frame do not import each other.
import type { AdminClient } from '../client.js';
import type { ModalState } from '../modals/modal-props.js';

export interface ViewProps {
  client: AdminClient;
  /** True when no modal is open (the view's keys work). */
  active: boolean;
  /** Rows the view may use. */
  height: number;
  width: number;
  open(modal: ModalState): void;
  notify(message: string): void;
}
