import { useLocation, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";

/**
 * Where focus goes after a client-side navigation (issue 17 §1), so a keyboard or
 * screen-reader user is not left on <body>:
 * - after a save (a POST that ended), on the confirmation ("Sparat!", the toast), or, when
 *   the save was refused, on the first invalid field, scrolled into view;
 * - after going to another page, on its h1 (a screen reader reads the new title);
 * - a dialog opened by the URL takes focus itself, and gives it back when it closes
 *   (app/ui/url-dialog.tsx); a change of the query alone (a filter, a page) leaves focus
 *   where the user is.
 * The first load is the browser's own.
 */
export function useFocusAfterNavigation() {
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
      if (document.querySelector("dialog[open]")) return;
      const main = document.getElementById("main");
      if (!main) return;
      if (wasSubmit) {
        const toast = document.querySelector<HTMLElement>(".toast");
        const invalid = main.querySelector<HTMLElement>('[aria-invalid="true"], .error-summary');
        const target = toast ?? invalid;
        if (target) {
          if (!target.matches("input, select, textarea, button, a[href]")) target.tabIndex = -1;
          target.focus({ preventScroll: true });
          target.scrollIntoView({ block: "nearest" });
        }
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
