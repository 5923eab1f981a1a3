import { Form, Link, useLocation } from "@remix-run/react";
import type { Alert } from "~/features/alerts/index.server";
import { CsrfInput } from "~/ui/csrf";

const LOCK_TEXT = "Detta måste göras innan ni kan påbörja er normala returrapportering.";

/**
 * The alerts dialog, rendered in the page by the server so it works the same with
 * and without JavaScript. It is not modal: an imperative alert must be resolved on
 * the page it points to, which a modal would cover (docs/decisions/026-the-morning-form.md, "Att göra").
 * 'Stäng' is a real form that marks the dialog shown for the session; an
 * imperative alert has no 'Stäng' and stays until it is resolved.
 */
export function AlertsDialog({ alerts }: { alerts: Alert[] }) {
  const location = useLocation();
  if (alerts.length === 0) return null;
  const imperative = alerts.some((a) => a.imperative);
  return (
    <section className={`alerts-dialog${imperative ? " imperative" : ""}`} role="dialog" aria-labelledby="alerts-title" aria-modal="false">
      {/* Not a heading: the page's h1 is the first heading; the dialog is named by it. */}
      <p id="alerts-title" className="alerts-title">
        Att göra
      </p>
      <ul className="alerts-list">
        {alerts.map((a) => (
          <li key={a.type}>
            <span className="alert-text">{a.text}</span>
            {location.pathname === a.to ? null : (
              <Link to={a.to}>{a.action}</Link>
            )}
          </li>
        ))}
      </ul>
      {imperative ? (
        <p className="lock-text">
          <strong>{LOCK_TEXT}</strong>
        </p>
      ) : (
        <Form method="post" action="/aviseringar" className="actions">
          <CsrfInput />
          <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
          <button type="submit">Stäng</button>
        </Form>
      )}
    </section>
  );
}
