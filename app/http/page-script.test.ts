// The page script waits for the first frame: Remix's async module with its static route
// imports becomes one that imports them after a frame, with the same names, then the entry.
// Any other shape is left alone, so a Remix that writes it differently still hydrates.
import { describe, expect, it } from "vitest";
import { afterFirstFrame } from "./page-script.server";

const REMIX = `<body><form method="post"></form><script nonce="abc" type="module" async="">;
import * as route0 from "/assets/root-A.js";
import * as route1 from "/assets/_retailer-B.js";
window.__remixManifest = {"routes":{}};
window.__remixRouteModules = {"root":route0,"routes/_retailer":route1};

import("/assets/entry.client-C.js");</script></body>`;

describe("the page script after the first frame", () => {
  it("imports the route modules after a frame, under their names, then the entry", async () => {
    const html = afterFirstFrame(REMIX);
    expect(html).not.toContain("async");
    expect(html).not.toMatch(/^import \*/m);
    expect(html).toContain('<script nonce="abc" type="module">requestAnimationFrame(()=>setTimeout(()=>Promise.all([import("/assets/root-A.js"),import("/assets/_retailer-B.js")]).then(([route0,route1])=>{');
    // Run it as the browser would: the frame, the timer, the imports, in that order.
    const script = /<script[^>]*>([\s\S]*)<\/script>/.exec(html)![1];
    const order: string[] = [];
    const win: Record<string, unknown> = {};
    const run = new Function("requestAnimationFrame", "setTimeout", "window", "importer", script.replace(/\bimport\(/g, "importer("));
    await new Promise<void>((done) => {
      run(
        (f: () => void) => (order.push("frame"), f()),
        (f: () => void) => (order.push("timer"), f()),
        win,
        async (url: string) => {
          order.push(url);
          if (url.includes("entry")) done();
          return { url };
        },
      );
    });
    expect(order).toEqual(["frame", "timer", "/assets/root-A.js", "/assets/_retailer-B.js", "/assets/entry.client-C.js"]);
    expect(win.__remixRouteModules).toEqual({ root: { url: "/assets/root-A.js" }, "routes/_retailer": { url: "/assets/_retailer-B.js" } });
  });

  it("leaves a page without Remix's script, or of another shape, as it is", () => {
    expect(afterFirstFrame("<p>Ingen skript</p>")).toBe("<p>Ingen skript</p>");
    const other = REMIX.replace('import * as route1 from "/assets/_retailer-B.js";', 'import "/assets/manifest.js";');
    expect(afterFirstFrame(other)).toBe(other);
  });
});
