import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Where focus goes after a client-side navigation, so a keyboard or
 * screen-reader user is not left on <body>:
 * - after a save (a POST that ended), on the confirmation ("Sparat!", the toast), or, when
 *   the save was refused, on the first invalid field, scrolled into view;
 * - after going to another page, on its h1 (a screen reader reads the new title);
 * - a dialog opened by the URL takes focus itself, and gives it back when it closes
 *   (app/ui/url-dialog.tsx); a change of the query alone (a filter, a page) leaves focus
 *   where the user is.
 * On a page's first load focus is the browser's own, unless the page is the answer to
 * a save sent as the browser's own POST (the returns form, reloadDocument): then the
 * confirmation or the first refused field gets it, as after a save in the browser.
 */
function focusSaveAnswer(main: HTMLElement) {
  const toast = document.querySelector<HTMLElement>(".toast");
  // The first refused field itself (the error summary above it is an alert, read out anyway).
  const invalid = main.querySelector<HTMLElement>('[aria-invalid="true"]') ?? main.querySelector<HTMLElement>(".error-summary");
  const target = toast ?? invalid;
  if (!target) return;
  if (!target.matches("input, select, textarea, button, a[href]")) target.tabIndex = -1;
  target.focus({ preventScroll: true });
  target.scrollIntoView({ block: "nearest" });
}

export function useFocusAfterNavigation() {
  useEffect(() => {
    // A first load that answers a save sent as the browser's own POST: the toast only
    // follows a save, and fields are only marked invalid by a refused one. Never away
    // from a field a slow phone's user is already typing in.
    const frame = requestAnimationFrame(() => {
      const main = document.getElementById("main");
      if (!main || document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      if (document.activeElement && document.activeElement !== document.body) return;
      focusSaveAnswer(main);
    });
    return () => cancelAnimationFrame(frame);
  }, []);

  const navigation = useNavigation();
  const location = useLocation();
  const submitted = useRef(false);
  const shownPath = useRef<string | null>(null);

  useEffect(() => {
    if (navigation.state !== "idle" && navigation.formMethod && navigation.formMethod.toUpperCase() !== "GET") submitted.current = true;
  }, [navigation.state, navigation.formMethod]);

  useEffect(() => {
    if (navigation.state !== "idle") return;
    const before = shownPath.current;
    shownPath.current = location.pathname;
    const wasSubmit = submitted.current;
    submitted.current = false;
    if (before === null) return;
    const frame = requestAnimationFrame(() => {
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const main = document.getElementById("main");
      if (!main) return;
      if (wasSubmit) {
        focusSaveAnswer(main);
        return;
      }
      if (before !== location.pathname) {
        const h1 = main.querySelector<HTMLElement>("h1");
        if (h1) {
          h1.tabIndex = -1;
          h1.focus();
        }
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [navigation.state, location.pathname, location.key]);
}
