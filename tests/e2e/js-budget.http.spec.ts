// Issue 17 §5: a slow phone on a bad connection loads the login page's JavaScript in
// budget: at most 100 KB gzip, everything the page loads (the module preloads, the entry
// and the route manifest). The login ships no form library (app/ui/login-box.tsx).
import { gzipSync } from "node:zlib";
import { expect, test } from "@playwright/test";

test("the login page loads at most 100 KB of JavaScript (gzip)", async ({ request }) => {
  const html = await (await request.get("/login")).text();
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="(\/assets\/[^"]+\.js)"/g)].map((m) => m[1]);
  const manifest = [...html.matchAll(/(\/assets\/manifest-[^"]+\.js)/g)].map((m) => m[1]);
  const entry = [...html.matchAll(/import\("(\/assets\/entry\.client[^"]+\.js)"\)/g)].map((m) => m[1]);
  const assets = [...new Set([...preloads, ...manifest, ...entry])];
  expect(assets.length).toBeGreaterThan(3);
  let total = 0;
  const sizes: string[] = [];
  for (const a of assets) {
    const body = await (await request.get(a)).body();
    const size = gzipSync(body).length;
    total += size;
    sizes.push(`${a} ${(size / 1024).toFixed(1)} KB`);
  }
  console.log(`login JavaScript: ${(total / 1024).toFixed(1)} KB gzip in ${assets.length} files`);
  expect(total, sizes.join("\n")).toBeLessThanOrEqual(100 * 1024);
  // No validation library on the login page.
  expect(assets.some((a) => /\/assets\/(zod|hooks)-/.test(a)), sizes.join("\n")).toBe(false);
});
