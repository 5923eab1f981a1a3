import { lazy, Suspense, type ReactNode } from "react";

const AriaModal = lazy(() => import("./aria-modal"));

/**
 * A question the browser asks before it sends a form ("spara ändå?"), with JavaScript
 * only: without it the form is sent as it is and the server's rules decide. React Aria's
 * modal (app/ui/aria-modal.tsx): focus moves into it, Escape or a press outside is the
 * cancel, focus returns to what opened it. Its code is the lazy chunk the URL dialogs use.
 */
export function AskDialog({
  title,
  children,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: {
  title: ReactNode;
  children?: ReactNode;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Suspense fallback={null}>
      <AriaModal title={title} close={null} onClose={onCancel}>
        {children}
        <div className="actions">
          <button type="button" className="primary" onClick={onConfirm}>
            {confirmLabel}
          </button>
          <button type="button" onClick={onCancel}>
            {cancelLabel}
          </button>
        </div>
      </AriaModal>
    </Suspense>
  );
}
