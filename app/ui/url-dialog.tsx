import { useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, type ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

/**
 * A dialog whose open state is the URL (DESIGN.md "Without JavaScript"). Without
 * JavaScript it is a section in the page with a 'Stäng' link; with JavaScript the
 * same content opens as a native modal <dialog> (focus trap, Escape, backdrop)
 * over the page. Native <dialog> rather than React Aria's Modal: it costs no
 * client JavaScript on the retailer pages, which have a tight budget.
 */
export function UrlDialog({ title, closeTo, children }: { title: ReactNode; closeTo: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!hydrated || !dialog) return;
    // What opened the dialog (the link still has the focus): it gets the focus back when
    // the dialog closes (issue 17 §1), or the page's h1 if it is gone meanwhile.
    const opener = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    return () => {
      // After the page's own focus move (app/ui/focus.ts: a save's confirmation wins).
      setTimeout(() => {
        if (document.querySelector("dialog[open]")) return;
        const free = !document.activeElement || document.activeElement === document.body;
        if (free && opener?.isConnected) opener.focus();
      }, 50);
    };
  }, [hydrated]);
  const close = (
    <a
      href={closeTo}
      className="dialog-close"
      onClick={(e) => {
        if (!hydrated) return;
        e.preventDefault();
        navigate(closeTo, { preventScrollReset: true });
      }}
    >
      Stäng
    </a>
  );
  if (!hydrated) {
    return (
      <section className="card url-dialog" aria-labelledby={titleId}>
        <div className="dialog-head">
          <h2 id={titleId}>{title}</h2>
          {close}
        </div>
        {children}
      </section>
    );
  }
  return (
    <dialog
      ref={ref}
      className="modal"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        navigate(closeTo, { preventScrollReset: true });
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        {close}
      </div>
      {children}
    </dialog>
  );
}
