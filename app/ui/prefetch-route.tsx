import { Link } from "@remix-run/react";
import { useHydrated } from "./use-hydrated";

/**
 * Fetches the code of the page a form's save leads to, once this page is interactive, so
 * the step after the save does not wait for it (the confirm step after the returns form;
 * the start page after the login, decision 026). A redirect after a POST is not a link
 * Remix can see, so the route is neither discovered nor prefetched on its own; this
 * hidden link (not rendered without JavaScript, never focusable) is one it can.
 */
export function PrefetchRoute({ to }: { to: string }) {
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return <Link to={to} prefetch="render" hidden tabIndex={-1} aria-hidden="true" />;
}
