import { Link, useFormAction, useLocation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { RowAction } from "./row-action";
import { UrlDialog } from "./url-dialog";

/**
 * Confirmation before a delete or another irreversible action, one shape
 * for every back-office screen. The row's button is a link that puts `?bekrafta=<key>`
 * in the URL (the rest of the query kept, so filters and the page survive); the screen
 * renders <ConfirmDialog> for that key. Without JavaScript the dialog is a section on the
 * page (the confirm page); with it a modal <dialog>. "Avbryt" and Escape close it, and
 * only the dialog's own button posts the action.
 *
 *   <ConfirmLink confirm={`message-${m.id}`} label="Ta bort" ariaLabel={`Ta bort ${m.header}`} />
 *   {confirming === `message-${m.id}` ? <ConfirmDialog … intent="delete" fields={{ id: m.id }} /> : null}
 */
export function useConfirming(param = "bekrafta"): string | null {
  const [params] = useSearchParams();
  return params.get(param);
}

export function ConfirmLink({
  confirm,
  label,
  ariaLabel,
  className,
  param = "bekrafta",
}: {
  confirm: string;
  label: ReactNode;
  ariaLabel?: string;
  className?: string;
  param?: string;
}) {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.set(param, confirm);
  return (
    <Link to={`?${next}`} preventScrollReset className={className ?? "button"} aria-label={ariaLabel}>
      {label}
    </Link>
  );
}

/** The query string without the confirm parameter: where "Avbryt" and a refusal go back to. */
export function useCloseTo(param = "bekrafta"): string {
  const [params] = useSearchParams();
  const next = new URLSearchParams(params);
  next.delete(param);
  const query = next.toString();
  return query ? `?${query}` : "?";
}

export function ConfirmDialog({
  title,
  children,
  intent,
  fields,
  confirmLabel,
  action,
  param = "bekrafta",
}: {
  title: ReactNode;
  children?: ReactNode;
  intent: string;
  fields: Record<string, string | number>;
  /** The button's text: what happens, e.g. "Ta bort meddelandet". */
  confirmLabel: ReactNode;
  action?: string;
  param?: string;
}) {
  const closeTo = useCloseTo(param);
  // The form posts to the page without the confirm step, so whatever the action answers
  // (a refusal with its message, or the page after a redirect) shows without the dialog.
  const { pathname } = useLocation();
  const index = new URL(useFormAction(), "http://x").searchParams.has("index");
  const query = new URLSearchParams(closeTo.slice(1));
  if (index) query.set("index", "");
  const postTo = action ?? `${pathname}${query.toString() ? `?${query.toString().replace(/index=(&|$)/, "index$1")}` : ""}`;
  return (
    <UrlDialog title={title} closeTo={closeTo}>
      {children}
      <div className="actions">
        <RowAction intent={intent} fields={fields} label={confirmLabel} buttonClassName="danger" action={postTo} />
        <Link to={closeTo} preventScrollReset>
          Avbryt
        </Link>
      </div>
    </UrlDialog>
  );
}

/**
 * A row's delete (or other irreversible action) with its confirmation in one: the link,
 * and the dialog when the URL asks for this row's confirmation.
 */
export function ConfirmAction({
  confirm,
  label,
  ariaLabel,
  className,
  title,
  intent,
  fields,
  confirmLabel,
  children,
}: {
  confirm: string;
  label: ReactNode;
  ariaLabel?: string;
  className?: string;
  title: ReactNode;
  intent: string;
  fields: Record<string, string | number>;
  confirmLabel: ReactNode;
  /** What will happen, in the dialog. */
  children?: ReactNode;
}) {
  const confirming = useConfirming();
  return (
    <>
      <ConfirmLink confirm={confirm} label={label} ariaLabel={ariaLabel} className={className} />
      {confirming === confirm ? (
        <ConfirmDialog title={title} intent={intent} fields={fields} confirmLabel={confirmLabel}>
          {children}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
