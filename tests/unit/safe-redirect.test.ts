// A redirect target never leaves the site. The browser's side is
// played by the WHATWG URL parser (Node's URL is one): it drops tabs and newlines,
// treats `\` as `/` and `//host` as another host, which is exactly how
// `/login?redirectTo=/%09/evil.example` got out.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { safeRedirect } from "../../app/auth/guards.server";
import { HOSTS, LEADS, TAILS, redirectPayload as payload } from "../redirect-payloads";

const SITES = ["http://127.0.0.1:3000", "https://returportalen.example"];
const FALLBACK = "/start-fallback";

/** Where a browser on `site` goes with this Location header value. */
function followed(location: string, site: string): URL {
  return new URL(location, `${site}/login?redirectTo=x`);
}

function staysOnSite(result: string) {
  if (result === FALLBACK) return;
  expect(result.startsWith("/")).toBe(true);
  expect(result.startsWith("//")).toBe(false);
  expect(result).not.toMatch(/[\u0000-\u001f\u007f-\u009f\\]/);
  for (const site of SITES) expect(followed(result, site).origin).toBe(site);
}

const segment = fc.stringMatching(/^[a-z0-9åäö_-]{1,12}$/);
const ownPath = fc
  .tuple(fc.array(segment, { minLength: 0, maxLength: 4 }), fc.option(fc.stringMatching(/^[a-z]{1,6}=[a-z0-9]{0,6}$/), { nil: null }), fc.option(segment, { nil: null }))
  .map(([segs, query, hash]) => `/${segs.join("/")}${query ? `?${query}` : ""}${hash ? `#${hash}` : ""}`);

describe("safeRedirect", () => {
  it("refuses the payloads seen in the issue", () => {
    for (const to of ["/%09/evil.example", "/\t/evil.example", "//evil.example", "/\\evil.example", "/%2f/evil.example", "/%5cevil.example", "javascript:alert(1)", "http:evil.example", "https://evil.example", "/.//evil.example"]) {
      expect(safeRedirect(to, FALLBACK), to).toBe(FALLBACK);
    }
  });

  it("keeps the site's own paths, normalised", () => {
    expect(safeRedirect("/rapportering/1?kund=2#rad", FALLBACK)).toBe("/rapportering/1?kund=2#rad");
    expect(safeRedirect("/admin/guarantees?kund=1001", FALLBACK)).toBe("/admin/guarantees?kund=1001");
    expect(safeRedirect("/a/./b/../c", FALLBACK)).toBe("/a/c");
    expect(safeRedirect("/historik?från=2026-03-01", FALLBACK)).toBe("/historik?fr%C3%A5n=2026-03-01");
    expect(safeRedirect("/", FALLBACK)).toBe("/");
  });

  it("falls back for anything that is not a text path", () => {
    expect(safeRedirect(null, FALLBACK)).toBe(FALLBACK);
    expect(safeRedirect(undefined, FALLBACK)).toBe(FALLBACK);
    expect(safeRedirect("", FALLBACK)).toBe(FALLBACK);
    expect(safeRedirect(new File(["/x"], "x.txt"), FALLBACK)).toBe(FALLBACK);
    expect(safeRedirect("rapportering", FALLBACK)).toBe(FALLBACK);
    expect(safeRedirect("/%E0%A4%A", FALLBACK)).toBe(FALLBACK);
  });

  it("never sends the browser to another origin, over every payload family (property)", () => {
    fc.assert(
      fc.property(payload, (to) => {
        staysOnSite(safeRedirect(to, FALLBACK));
        // The same payload behind an own path prefix, and percent-encoded once more as a query would carry it.
        staysOnSite(safeRedirect(`/x${to}`, FALLBACK));
        staysOnSite(safeRedirect(decodeURIComponent(encodeURIComponent(to)), FALLBACK));
      }),
      { numRuns: 2_000 },
    );
  });

  it("every listed family on its own, with and without a host", () => {
    let tried = 0;
    for (const lead of LEADS) {
      for (const host of HOSTS) {
        for (const tail of TAILS) {
          staysOnSite(safeRedirect(lead + host + tail, FALLBACK));
          tried++;
        }
      }
    }
    expect(tried).toBe(LEADS.length * HOSTS.length * TAILS.length);
  });

  it("lets the site's own paths through unchanged (property)", () => {
    fc.assert(
      fc.property(ownPath, (to) => {
        const u = new URL(to, SITES[0]);
        expect(safeRedirect(to, FALLBACK)).toBe(u.pathname + u.search + u.hash);
      }),
      { numRuns: 500 },
    );
  });
});
