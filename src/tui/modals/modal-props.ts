// Owns what a modal is and gets: the modal kinds (ModalState) and the props every modal receives, in a module
// of their own so the modals and the host that shows them do not import each other.
import type { AdminClient } from '../client.js';
import type { OptimizeAnswer, RunProgress } from '../schemas.js';
import type { ActionId } from '../actions.js';

export type ModalState =
  | { kind: 'add-server' }
  | { kind: 'tools'; server: string; firstTime?: boolean }
  | { kind: 'optimize'; server: string; tool?: string }
  | { kind: 'batch' }
  | { kind: 'detail'; server: string; tool: string }
  | { kind: 'prompts'; server: string; tool: string }
  | { kind: 'export'; server?: string }
  | { kind: 'menu' }
  | { kind: 'help' }
  | { kind: 'connect' };

export interface ModalProps {
  client: AdminClient;
  close(): void;
  open(modal: ModalState): void;
  notify(message: string): void;
  optimization: OptimizeAnswer | undefined;
  reloadOptimization(): void;
  perform(action: ActionId): void;
  run: RunProgress | undefined;
  /** Where Export writes the report (the current folder). */
  exportDir: string;
  width: number;
  height: number;
}
