import type { ReactNode } from "react";
import { Dialog, Heading, Modal, ModalOverlay } from "react-aria-components";

/**
 * The modal half of UrlDialog (url-dialog.tsx), from React Aria: focus moves into the
 * dialog and is trapped there, Escape and a press outside close it, the rest of the page
 * is hidden from screen readers (except the live status, root.tsx's Toast), and focus
 * returns to what opened it. A chunk of its own, fetched at the first touch or key on a
 * page that stays on the page, or when a dialog opens (url-dialog.tsx), so no page pays
 * for it up front.
 */
export default function AriaModal({ title, close, onClose, children }: { title: ReactNode; close: ReactNode; onClose: () => void; children: ReactNode }) {
  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="modal-overlay"
    >
      <Modal className="modal">
        <Dialog className="modal-dialog">
          <div className="dialog-head">
            <Heading slot="title" level={2}>
              {title}
            </Heading>
            {close}
          </div>
          {children}
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
