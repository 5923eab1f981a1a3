// The app variant's paths (retailer spec §2.1: /papers/{reportState}, /addreturns,
// /delivery, /services, /development) lead to their web pages, so bookmarks and
// home-screen icons made with the app keep working. A permanent redirect
// keeps the query string; the page it leads to asks for the login as usual.
//
// Decision: /addreturns is the additions form (Ändra/tillägg, state 2); /services is
// "Mina tjänster", whose first page is the delivery note (as /mina-tjanster); the app's
// /development page has no web counterpart and leads to the start page.
import { redirect } from "@remix-run/node";

export const APP_VARIANT_PATHS = {
  "/addreturns": "/rapportering/2",
  "/delivery": "/foljesedel",
  "/services": "/foljesedel",
  "/development": "/",
} as const;

export function appVariantRedirect(request: Request, to: string): Response {
  const { search } = new URL(request.url);
  return redirect(`${to}${search}`, 301);
}

/** `/papers/{reportState}`: the same state on the web; an unknown state is a new report. */
export function papersTarget(reportState: string | undefined): string {
  return reportState === "2" ? "/rapportering/2" : "/rapportering/1";
}
