import { useNavigate } from "@remix-run/react";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useHydrated } from "./use-hydrated";

// The modal's component once its chunk has arrived. Not `React.lazy`: a lazy component
// suspends at its first render even when its code is already here, and the Suspense
// fallback (the section) is then a second section in another place of the tree, mounted
// for a moment and replaced by the modal. A field typed in during that moment was
// emptied (measured: section, section again about 20 ms later, modal 40 ms after that).
let LoadedModal: typeof import("./aria-modal").default | null = null;
const loadModal = () =>
  import("./aria-modal").then((m) => {
    LoadedModal = m.default;
    return m;
  });

// A page that can open a dialog fetches the modal's code at the user's first touch, key or
// click, so the first dialog opens as the modal at once: otherwise the section shows while
// the code arrives and then moves, and a press aimed at its button could land on the
// overlay. Not at load: on a thin line the first seconds belong to the page and to the
// first save (bench B9: fetched when idle, its 19 KB made the returns form's save 0.2 s
// slower with JavaScript than without).
if (typeof window !== "undefined") {
  const events = ["pointerdown", "keydown", "touchstart"] as const;
  const fetchNow = (event: Event) => {
    // A press that sends a form leaves the page: fetching now would only slow the answer.
    const target = event.target instanceof Element ? event.target : null;
    if (target?.closest('form button:not([type="button"]):not([type="reset"]), form input[type="submit"]')) return;
    if (event instanceof KeyboardEvent && event.key === "Enter" && target?.closest("form")) return;
    // So does a link to another page (a dialog opens on its own page, `?…`).
    const link = target?.closest("a[href]");
    if (link instanceof HTMLAnchorElement && link.pathname !== window.location.pathname) return;
    for (const e of events) window.removeEventListener(e, fetchNow, true);
    void loadModal().catch(() => {});
  };
  for (const e of events) window.addEventListener(e, fetchNow, { capture: true, passive: true });
}

/** What someone types in: a focused button (Spara, a confirm's Ja) is no field. */
const FIELD = 'input:not([type="hidden"], [type="submit"], [type="button"], [type="reset"], [type="image"]), textarea, select';

/**
 * A dialog whose open state is the URL (docs/architecture.md "Dialogs without JavaScript"). Without
 * JavaScript it is a section in the page with a 'Stäng' link; with JavaScript the same
 * content opens as React Aria's modal dialog (app/ui/aria-modal.tsx: focus trap, Escape,
 * a press outside, the page hidden from screen readers, focus back to the opener). The
 * modal's code is a chunk of its own, fetched at the user's first touch or key (or when a
 * dialog opens first); until it has arrived the dialog shows as the section, so nothing
 * waits for it, and a section someone has entered (a field focused or typed in) stays
 * the section.
 */
export function UrlDialog({ title, closeTo, children }: { title: ReactNode; closeTo: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const titleId = useId();
  const closeDialog = () => navigate(closeTo, { preventScrollReset: true });
  // Until the modal's code has arrived the dialog is the section. Once someone has entered
  // the section (focused a field, typed) it stays the section for this opening: the modal
  // would be a new form, what was typed would be gone, and a key pressed after the modal
  // took the focus would land on the dialog, not the field (a slow phone, or a loaded
  // machine, is in the field before the chunk arrives). A focus is a discrete event, so
  // React commits its update before the next key is handled.
  const [modalReady, setModalReady] = useState(LoadedModal !== null);
  // (A page showing one dialog after another in the same place gives each its own `key`, so
  // each opening starts here afresh.)
  const [enteredSection, setEnteredSection] = useState(false);
  const sectionRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // Entered before React hydrated (onInput and onFocus were not listening yet): a field
    // no longer holds what the page came with, or has the focus. Checked in the same pass
    // that marks the page hydrated, so the modal never replaces it.
    const section = sectionRef.current;
    const fields = section?.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input, textarea") ?? [];
    if ([...fields].some((f) => f.value !== f.defaultValue || ("checked" in f && f.checked !== f.defaultChecked))) setEnteredSection(true);
    if (section?.contains(document.activeElement) && document.activeElement?.matches(FIELD)) setEnteredSection(true);
  }, []);
  useEffect(() => {
    if (!hydrated || modalReady) return;
    let live = true;
    loadModal().then(
      () => live && setModalReady(true),
      () => {},
    );
    return () => {
      live = false;
    };
  }, [hydrated, modalReady]);
  // What had the focus when the dialog first rendered (the link that opened it), read during
  // that render: a modal rendered at once (its code already here) takes the focus in its
  // own effects, before this component's run.
  const [focusedBefore] = useState(() =>
    typeof document !== "undefined" && document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null,
  );
  useEffect(() => {
    if (!hydrated) return;
    // What opened the dialog: it gets the focus back when the dialog closes, unless the
    // page moved it meanwhile (a save's confirmation wins, app/ui/focus.ts). React Aria
    // restores it too; this covers the opener being re-rendered by the navigation that
    // closed the dialog. (A dialog the page was loaded with: what has the focus once
    // hydrated, unless that is inside the dialog.)
    const active = document.activeElement;
    const opener =
      focusedBefore ??
      (active instanceof HTMLElement && active !== document.body && !active.closest('[role="dialog"], .url-dialog') ? active : null);
    return () => {
      setTimeout(() => {
        if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
        // React Aria gives the focus back to what had it when the modal mounted, which may
        // be the page's h1 (app/ui/focus.ts moved it there on the navigation that opened
        // the dialog). The opener wins, unless a save's confirmation has the focus.
        const confirmation = document.activeElement?.closest('[role="status"]');
        if (confirmation) return;
        if (opener?.isConnected) opener.focus();
        else if (!document.activeElement || document.activeElement === document.body) {
          // The opener went with the page the dialog closed onto (the returns form after
          // its confirm step): the page's heading, never the body.
          const heading = document.querySelector<HTMLElement>("main h1");
          if (heading) {
            heading.tabIndex = -1;
            heading.focus({ preventScroll: true });
          }
        }
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
        closeDialog();
      }}
    >
      Stäng
    </a>
  );
  const section = (
    <section
      ref={sectionRef}
      className="card url-dialog"
      aria-labelledby={titleId}
      onInput={() => setEnteredSection(true)}
      onFocus={(e) => {
        if (e.target.matches(FIELD)) setEnteredSection(true);
      }}
    >
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        {close}
      </div>
      {children}
    </section>
  );
  if (!hydrated || !modalReady || enteredSection || LoadedModal === null) return section;
  return (
    <LoadedModal title={title} close={close} onClose={closeDialog}>
      {children}
    </LoadedModal>
  );
}
