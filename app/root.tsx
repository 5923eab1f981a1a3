import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
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
import { useEffect, useState } from "react";
import { formToken } from "./auth/csrf.server";
import { getUserAndSession } from "./auth/guards.server";
import { commitSession } from "./auth/session.server";
import { useRequestValues } from "./ui/request-context";
import { RouteError } from "./ui/route-error";
import styles from "./styles.css?url";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [{ title: "Returportalen" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const { session, user } = await getUserAndSession(request);
  // Reading a flash value consumes it; the session must then be committed.
  const toast = session.id ? ((session.get("toast") as string | undefined) ?? null) : null;
  const headers = toast ? { "Set-Cookie": await commitSession(request, session) } : undefined;
  // The session's form token, for <CsrfInput /> and the meta tag; none before login.
  const csrf = user ? formToken(session) : null;
  return data({ toast, userKind: user?.kind ?? null, csrf }, { headers });
}

export function Layout({ children }: { children: React.ReactNode }) {
  const { nonce, requestId } = useRequestValues();
  const csrf = useRouteLoaderData<typeof loader>("root")?.csrf;
  return (
    <html lang="sv">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="request-id" content={requestId} />
        {csrf ? <meta name="csrf-token" content={csrf} /> : null}
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const { toast } = useLoaderData<typeof loader>();
  return (
    <>
      <Outlet />
      {toast ? <Toast message={toast} /> : null}
    </>
  );
}

export function Toast({ message }: { message: string }) {
  const [open, setOpen] = useState(true);
  const location = useLocation();
  useEffect(() => {
    // A confirmation goes away by itself; it never takes clicks (pointer-events: none).
    setOpen(true);
    const timer = setTimeout(() => setOpen(false), 6000);
    return () => clearTimeout(timer);
  }, [message, location.key]);
  if (!open) return null;
  return (
    <div className="toast" role="status">
      {message}
    </div>
  );
}

export function ErrorBoundary() {
  const root = useRouteLoaderData<typeof loader>("root");
  return (
    <main className="page narrow">
      <RouteError home={root?.userKind === "staff" ? "/admin" : "/"} />
    </main>
  );
}
