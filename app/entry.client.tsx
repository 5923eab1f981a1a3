// The browser's entry: Remix's own hydration, started only once the server's HTML has been
// painted. Every page works before its script has run (decision 026), so nothing is lost by
// waiting one frame, and a page whose modules are already cached (they are prefetched while
// the page before is read) no longer runs its whole hydration before its first paint: with
// JavaScript the page is on screen as soon as without it (decision 038, bench B12).
import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";

function hydrate() {
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <RemixBrowser />
      </StrictMode>,
    );
  });
}

// After the next frame is painted: a frame's callback runs before its paint, a task queued
// from it after. A page opened in the background paints no frame; it hydrates at once.
if (document.visibilityState === "hidden") setTimeout(hydrate, 0);
else requestAnimationFrame(() => setTimeout(hydrate, 0));
