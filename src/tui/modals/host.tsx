// Owns which modal is open and showing it: the modal kinds, and the props every modal gets (the client, close,
// open another, notify, the optimization state and the app's actions).
import type { AdminClient } from '../client.js';
import type { OptimizeAnswer, RunProgress } from '../schemas.js';
import type { ActionId } from '../actions.js';
import { AddServerModal } from './add-server.js';
import { ConfigureToolsModal } from './configure-tools.js';
import { OptimizeToolsModal, BatchModal } from './optimize-tools.js';
import { DetailModal } from './detail.js';
import { GoldenPromptsModal } from './golden-prompts.js';
import { CommandMenu } from './command-menu.js';
import { ConnectModal, ExportModal, HelpModal } from './info.js';

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

export function ModalHost({ modal, ...props }: ModalProps & { modal: ModalState }) {
  switch (modal.kind) {
    case 'add-server':
      return <AddServerModal {...props} />;
    case 'tools':
      return <ConfigureToolsModal {...props} server={modal.server} firstTime={modal.firstTime === true} />;
    case 'optimize':
      return <OptimizeToolsModal {...props} server={modal.server} {...(modal.tool && { tool: modal.tool })} />;
    case 'batch':
      return <BatchModal {...props} />;
    case 'detail':
      return <DetailModal {...props} server={modal.server} tool={modal.tool} />;
    case 'prompts':
      return <GoldenPromptsModal {...props} server={modal.server} tool={modal.tool} />;
    case 'export':
      return <ExportModal {...props} {...(modal.server && { server: modal.server })} />;
    case 'menu':
      return <CommandMenu {...props} />;
    case 'help':
      return <HelpModal {...props} />;
    case 'connect':
      return <ConnectModal {...props} />;
  }
}
