import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, Outlet, useLoaderData, useNavigation } from "@remix-run/react";
import { getUserAndSession, requireRetailer } from "~/auth/guards.server";
import { redirectWithToast } from "~/auth/session.server";
import { PAPER_TYPE_HEADING } from "~/catalog";
import { ALERTS_SHOWN_KEY, listAlerts, lockedMessage, lockRedirect } from "~/features/alerts/index.server";
import { listOpenBundles } from "~/features/bundles/index.server";
import { CsrfInput } from "~/ui/csrf";
import { listBanners } from "~/features/messages/index.server";
import { recallMessages } from "~/features/recalls/index.server";
import { today } from "~/lib/dates";
import { AlertsDialog } from "~/ui/alerts-dialog";
import { Banners } from "~/ui/banners";
import { UserHeader } from "~/ui/header";
import { ImpersonationBanner } from "~/ui/impersonation-banner";
import { retailerMenu } from "~/ui/menu";
import { Nav } from "~/ui/nav";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireRetailer(request, context);
  const impersonated = user.impersonatorId !== null;
  // An impersonating staff member gets no alerts (spec 6), so no lock either.
  const [alerts, staffBanners, recalls] = await Promise.all([impersonated ? [] : listAlerts(user.customerId), listBanners(user.customerId), recallMessages(user.customerId, today())]);
  // Acknowledged recalls stay among the messages, with their deadline (decision 036).
  const banners = [...recalls, ...staffBanners];
  const url = new URL(request.url);
  // The lock holds without JavaScript: locked pages are refused and the retailer is sent to what must be done.
  const to = lockRedirect(alerts, url.pathname);
  // The page says why it was sent here.
  if (to !== null) throw await redirectWithToast(request, to, lockedMessage(alerts));
  const { session } = await getUserAndSession(request);
  const imperative = alerts.some((a) => a.imperative);
  // Shown once per session ('Stäng' marks it shown); an imperative one stays until it is resolved.
  const showAlerts = alerts.length > 0 && (imperative || session.get(ALERTS_SHOWN_KEY) !== true);
  // Locked for too many open bundles: the lock itself offers to close them.
  const lockBundles = alerts.some((a) => a.type === "BUNDLES" && a.imperative) ? overOpen(await listOpenBundles(user.customerId)) : [];
  return { name: user.name, impersonated, banners, alerts: showAlerts ? alerts : [], locked: imperative, lockBundles };
}

/** The open bundles of each paper type that has more than one open. */
function overOpen<B extends { type: number }>(bundles: B[]): B[] {
  return bundles.filter((b) => bundles.filter((o) => o.type === b.type).length > 1);
}

// Alerts and banners follow every navigation and the lock cannot be walked around with client-side links.
export const shouldRevalidate = () => true;

export default function RetailerLayout() {
  const { name, banners, alerts, locked, lockBundles, impersonated } = useLoaderData<typeof loader>();
  // 'Hämtar data...' while the next page's data loads (spec: the start page; with JavaScript,
  // on every page, since a slow phone otherwise shows nothing happening).
  // A search form (method get, Historik's range) loads a page like a link; a save's reload does not count.
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && (navigation.formMethod === undefined || navigation.formMethod.toUpperCase() === "GET");
  return (
    <>
      {impersonated ? <ImpersonationBanner customerName={name} /> : null}
      <UserHeader name={name} home="/" />
      <div className="shell">
        <Nav items={retailerMenu} locked={locked}>
          {lockBundles.length > 0 ? <CloseBundles bundles={lockBundles} /> : null}
        </Nav>
        <main id="main" tabIndex={-1} className="page" aria-busy={loading || undefined}>
          {loading ? (
            // Announced (aria-live), not a status role: the save confirmations are the page's status.
            <div className="loading-overlay delayed" aria-live="polite">
              Hämtar data...
            </div>
          ) : null}
          <Banners banners={banners} />
          <AlertsDialog alerts={alerts} />
          <Outlet />
        </main>
      </div>
    </>
  );
}

/**
 * In the locked menu: one "Stäng bunt N" per open bundle of a type with more than one,
 * each a plain form to the start page's close action (JavaScript or not).
 */
function CloseBundles({ bundles }: { bundles: { number: number; type: number }[] }) {
  return (
    <div className="lock-actions">
      <p>Bara en bunt per returtyp kan vara öppen. Stäng den du är klar med:</p>
      <ul>
        {bundles.map((b) => (
          <li key={b.number}>
            <Form method="post" action="/?index">
              <CsrfInput />
              <input type="hidden" name="bunt" value={b.number} />
              <button type="submit" name="intent" value="close">
                Stäng bunt {b.number}
              </button>{" "}
              <span className="muted">{PAPER_TYPE_HEADING[b.type]}</span>
            </Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
