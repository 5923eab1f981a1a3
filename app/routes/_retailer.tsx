import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, redirect, useLoaderData, useNavigation } from "@remix-run/react";
import { getUserAndSession, requireRetailer } from "~/auth/guards.server";
import { ALERTS_SHOWN_KEY, listAlerts, lockRedirect } from "~/features/alerts/index.server";
import { listBanners } from "~/features/messages/index.server";
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
  const [alerts, banners] = await Promise.all([impersonated ? [] : listAlerts(user.customerId), listBanners(user.customerId)]);
  const url = new URL(request.url);
  // The lock holds without JavaScript: locked pages are refused and the retailer is sent to what must be done.
  const to = lockRedirect(alerts, url.pathname);
  if (to !== null) throw redirect(to);
  const { session } = await getUserAndSession(request);
  const imperative = alerts.some((a) => a.imperative);
  // Shown once per session ('Stäng' marks it shown); an imperative one stays until it is resolved.
  const showAlerts = alerts.length > 0 && (imperative || session.get(ALERTS_SHOWN_KEY) !== true);
  return { name: user.name, impersonated, banners, alerts: showAlerts ? alerts : [], locked: imperative };
}

// Alerts and banners follow every navigation and the lock cannot be walked around with client-side links.
export const shouldRevalidate = () => true;

export default function RetailerLayout() {
  const { name, banners, alerts, locked, impersonated } = useLoaderData<typeof loader>();
  // 'Hämtar data...' while the next page's data loads (spec: the start page; with JavaScript,
  // on every page, since a slow phone otherwise shows nothing happening).
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.formMethod === undefined;
  return (
    <>
      {impersonated ? <ImpersonationBanner customerName={name} /> : null}
      <UserHeader name={name} home="/" />
      <div className="shell">
        <Nav items={retailerMenu} locked={locked} />
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
