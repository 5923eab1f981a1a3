import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  useLoaderData,
  useLocation,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect } from "react";
import { formToken } from "./auth/csrf.server";
import { getUserAndSession } from "./auth/guards.server";
import { takeToast } from "./auth/session.server";
import { useFocusAfterNavigation } from "./ui/focus";
import { useRequestValues } from "./ui/request-context";
import { RouteError } from "./ui/route-error";
import styles from "./styles.css?url";

export const links: LinksFunction = () => [{ rel: "icon", href: "/favicon.svg", type: "image/svg+xml" }];

/**
 * The style sheet in the page (entry.server.tsx reads it once), so nothing but the HTML
 * stands between a slow phone and the first paint (bench B9). In the browser the element
 * keeps what the server wrote; without an inlined sheet (development) it is a link.
 */
function InlineStyles({ css }: { css?: string }) {
  const text = css ?? (typeof document !== "undefined" ? document.getElementById("styles")?.textContent : undefined);
  if (!text) return <link rel="stylesheet" href={styles} />;
  return <style id="styles" dangerouslySetInnerHTML={{ __html: text }} />;
}

export const meta: MetaFunction = () => [{ title: "Returportalen" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, user } = await getUserAndSession(request);
  // The message of the request that sent the browser here, taken: its cookie ends. One for
  // another page (another tab's) stays for it.
  const { text: toast, setCookie } = await takeToast(request);
  const headers = setCookie ? { "Set-Cookie": setCookie } : undefined;
  // The session's form token, for <CsrfInput /> and the meta tag; none before login.
  const csrf = user ? formToken(session) : null;
  return data({ toast, userKind: user?.kind ?? null, csrf }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { nonce, requestId, css } = useRequestValues();
  const csrf = useRouteLoaderData<typeof loader>("root")?.csrf;
  useEffect(() => {
    // When the page became interactive, in ms since the navigation began (an error page
    // too): read by the slow-phone benchmarks (B9, B12) and by the e2e fixture, which waits
    // for it after every page load with JavaScript.
    document.documentElement.dataset.hydrated = String(Math.round(performance.now()));
  }, []);
  return (
    <html lang="sv">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="request-id" content={requestId} />
        {csrf ? <meta name="csrf-token" content={csrf} /> : null}
        <Meta />
        <InlineStyles css={css} />
        <Links />
      </head>
      <body>
        {/* The first Tab stop of every page: past the header and the menu. */}
        <a className="skip-link" href="#main">
          Hoppa till innehållet
        </a>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  useFocusAfterNavigation();
  return (
    <>
      <Outlet />
      {toast ? <Toast message={toast} /> : null}
    </>
  );
}

/**
 * The confirmation of what was just done ("Sparat!"): it stays until the next page or
 * action (WCAG 2.2.1), is read by screen readers (role=status), and gets the
 * focus after a save (app/ui/focus.ts). Only its Stäng takes clicks: a link to the page
 * itself, so it closes with or without JavaScript and never covers the page for good
 * (decision 038).
 */
export function Toast({ message }: { message: string }) {
  const location = useLocation();
  return (
    // data-live-announcer: React Aria's modal hides the rest of the page from screen
    // readers, but not this, so a confirmation is heard while a dialog is open.
    <div className="toast-bar">
      <div className="toast" role="status" data-live-announcer="true">
        {message}
      </div>
      <Link className="toast-close" to={location.pathname + location.search} preventScrollReset replace>
        Stäng<span className="visually-hidden"> meddelandet</span>
      </Link>
    </div>
  );
}

export function ErrorBoundary() {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <main id="main" tabIndex={-1} className="page narrow">
      <RouteError home={root?.userKind === "staff" ? "/admin" : "/"} />
    </main>
  );
}
