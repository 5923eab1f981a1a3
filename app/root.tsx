import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  data,
  isRouteErrorResponse,
  useLoaderData,
  useLocation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import { useEffect, useState } from "react";
import { formToken } from "./auth/csrf.server";
import { getUserAndSession } from "./auth/guards.server";
import { commitSession } from "./auth/session.server";
import { useRequestValues } from "./ui/request-context";
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

/** The orange snackbar for unexpected errors: message, request id and 'Stäng'. */
export function ErrorSnackbar({ message }: { message: string }) {
  const { requestId } = useRequestValues();
  const [open, setOpen] = useState(true);
  const location = useLocation();
  if (!open) return null;
  return (
    <div className="snackbar" role="alert">
      <span>
        {message}
        {requestId ? ` (fel-id ${requestId})` : null}
      </span>
      <a
        className="snackbar-close"
        href={location.pathname + location.search}
        onClick={(e) => {
          e.preventDefault();
          setOpen(false);
        }}
      >
        Stäng
      </a>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const root = useRouteLoaderData<typeof loader>("root");
  if (isRouteErrorResponse(error) && error.status < 500) {
    const text =
      error.status === 403
        ? typeof error.data === "string" && error.data
          ? error.data
          : "Du har inte behörighet till den här sidan."
        : error.status === 404
          ? "Sidan finns inte."
          : typeof error.data === "string"
            ? error.data
            : "Förfrågan kunde inte utföras.";
    return (
      <main className="page narrow">
        <h1>{error.status === 403 ? "Ingen behörighet" : error.status === 404 ? "Sidan finns inte" : "Fel"}</h1>
        <p>{text}</p>
        <p>
          <a href={root?.userKind === "staff" ? "/admin" : "/"}>Till startsidan</a>
        </p>
      </main>
    );
  }
  return (
    <main className="page narrow">
      <h1>Något gick fel</h1>
      <p>
        <a href="/">Till startsidan</a>
      </p>
      <ErrorSnackbar message="Ett oväntat fel inträffade. Försök igen om en stund." />
    </main>
  );
}
