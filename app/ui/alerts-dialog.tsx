import { Form, Link, useLocation } from "@remix-run/react";
import type { Alert } from "~/features/alerts/index.server";
import { CsrfInput } from "~/ui/csrf";

const LOCK_TEXT = "Detta måste göras innan ni kan påbörja er normala returrapportering.";

/**
 * "Att göra": the retailer's alerts, rendered in the page by the server so it works the same
 * with and without JavaScript. A plain region, not a dialog: an imperative alert must be
 * resolved on the page it points to, which a dialog would cover (docs/decisions/026-the-morning-form.md,
 * "Att göra"). On the start page, and whenever an alert is imperative, it stands open; on
 * other pages it is one line naming what to do, which opens to the links (a `<details>`,
 * no JavaScript), so it never pushes a page's heading down (decision 038).
 * 'Stäng' is a real form that marks the alerts shown for the session; an imperative alert
 * has no 'Stäng' and stays until it is resolved.
 */
export function AlertsDialog({ alerts }: { alerts: Alert[] }) {
  const location = useLocation();
  if (alerts.length === 0) return null;
  const imperative = alerts.some((a) => a.imperative);
  const folded = !imperative && location.pathname !== "/";
  // A <details>, open on the start page and while an alert locks the menu.
  return (
    <section className={`alerts-dialog${imperative ? " imperative" : ""}`} aria-labelledby="alerts-title">
      <details className="alerts-fold" open={!folded}>
        <summary>
          {/* Not a heading: the page's h1 is the first heading; the region is named by it. */}
          <span id="alerts-title" className="alerts-title">
            Att göra
          </span>{" "}
          <span className="alerts-summary">{alerts.map((a) => a.text).join(", ")}</span> <span className="banner-show">Visa</span>
        </summary>
        <ul className="alerts-list">
          {alerts.map((a) => (
            <li key={a.type}>
              <span className="alert-text">{a.text}</span>
              {location.pathname === a.to ? null : <Link to={a.to}>{a.action}</Link>}
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
      </details>
    </section>
  );
}
