// Owns which modal is open and showing it: the modal kinds, and the props every modal gets (the client, close,
// open another, notify, the optimization state and the app's actions).
import type { ModalProps, ModalState } from './modal-props.js';
import { AddServerModal } from './add-server.js';
import { ConfigureToolsModal } from './configure-tools.js';
import { OptimizeToolsModal, BatchModal } from './optimize-tools.js';
import { DetailModal } from './detail.js';
import { GoldenPromptsModal } from './golden-prompts.js';
import { CommandMenu } from './command-menu.js';
import { ConnectModal, ExportModal, HelpModal } from './info.js';

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
