// What a route that failed shows in place of its page: the reason in Swedish and the
// way home; an unexpected error also gets the snackbar with its request id. Used by the
// root and by the retailer and staff layouts, which keep their header and menu around it.
import { isRouteErrorResponse, useLocation, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { useState } from "react";
import { useRequestValues } from "./request-context";

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

export function RouteError({ home }: { home: string }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status < 500) {
    const own = typeof error.data === "string" && error.data ? error.data : null;
    const text =
      error.status === 403
        ? (own ?? "Du har inte behörighet till den här sidan.")
        : error.status === 404
          ? (own ?? "Sidan finns inte.")
          : (own ?? "Förfrågan kunde inte utföras.");
    return (
      <>
        <h1>{error.status === 403 ? "Ingen behörighet" : error.status === 404 ? "Sidan finns inte" : "Fel"}</h1>
        <p>{text}</p>
        <p>
          <a href={home}>Till startsidan</a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Något gick fel</h1>
      <p>
        <a href={home}>Till startsidan</a>
      </p>
      <ErrorSnackbar message="Ett oväntat fel inträffade. Försök igen om en stund." />
    </>
  );
}

/**
 * The ErrorBoundary of every retailer and staff screen: it renders inside the layout, so
 * the header and the menu stay around the reason (a screen's error never takes the layout
 * with it). Screens export it: `export { ScreenErrorBoundary as ErrorBoundary }`.
 */
export function ScreenErrorBoundary() {
  const root = useRouteLoaderData("root") as { userKind?: string | null } | undefined;
  return <RouteError home={root?.userKind === "staff" ? "/admin" : "/"} />;
}
