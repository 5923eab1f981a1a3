// The @remix-run/router patch (patches/@remix-run+router+1.23.3.patch; why:
// docs/decisions/010-statement-cache.md, section 7). On the server a route table is
// flattened and ranked once, and a route's pattern compiled once, instead of at every match
// (a page request matched the whole table three or four times). The answers must not change.
import { readFileSync, readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import type { AgnosticRouteObject } from "@remix-run/router";

const require = createRequire(import.meta.url);
// What the server loads: the CommonJS build (package.json "main").
const patched = require("@remix-run/router") as typeof import("@remix-run/router");
// An untouched build of the same version (the patch changes only the CommonJS one), to
// compare answers with.
const plain = require("@remix-run/router/dist/router.umd.js") as typeof import("@remix-run/router");

// A table shaped like the portal's: layouts without paths, index routes, parameters, an
// optional segment, a splat, a dot in a path.
const table = (): AgnosticRouteObject[] => [
  {
    id: "root",
    path: "",
    children: [
      { id: "login", path: "login" },
      { id: "login-kod", path: "login/kod" },
      {
        id: "_retailer",
        children: [
          { id: "_retailer._index", index: true },
          { id: "rapportering", path: "rapportering/:reportState", children: [{ id: "bekrafta", path: "bekrafta" }] },
          { id: "returer-pdf", path: "rapportering/:reportState/returer.pdf" },
          { id: "journal", path: "journal/:manad?" },
        ],
      },
      {
        id: "_staff",
        children: [
          { id: "admin", path: "admin" },
          { id: "kunder", path: "admin/kunder" },
          { id: "kund", path: "admin/kunder/:kund" },
          { id: "pinbrev", path: "admin/kunder/:kund/pinbrev" },
          ...Array.from({ length: 60 }, (_, i) => ({ id: `admin-${i}`, path: `admin/sida-${i}` })),
        ],
      },
      // The same pattern as case-sensitive and not: a cached pattern must not serve the other.
      { id: "Versaler", path: "Versaler", caseSensitive: true },
      { id: "versaler", path: "versaler" },
      { id: "splat", path: "*" },
    ],
  },
];

const PATHS = ["/", "/login", "/login/kod", "/rapportering/1", "/rapportering/2/bekrafta", "/rapportering/1/returer.pdf", "/journal", "/journal/2026-11", "/admin", "/admin/kunder/1001/pinbrev", "/admin/sida-59", "/finns-inte", "/admin/kunder/%C5%9Eahin", "/Versaler", "/versaler", "/VERSALER"];
const shape = (m: ReturnType<typeof patched.matchRoutes>) => m?.map((x) => ({ id: x.route.id, params: x.params, pathname: x.pathname, pathnameBase: x.pathnameBase })) ?? null;

let realRegExp: RegExpConstructor | undefined;
afterEach(() => {
  if (realRegExp) globalThis.RegExp = realRegExp;
  realRegExp = undefined;
});
/** Counts the regular expressions built while `fn` runs (compilePath builds one per pattern). */
function regExpsBuilt(fn: () => void): number {
  let built = 0;
  realRegExp = globalThis.RegExp;
  globalThis.RegExp = new Proxy(realRegExp, {
    construct(target, args) {
      built++;
      return Reflect.construct(target, args);
    },
  });
  try {
    fn();
  } finally {
    globalThis.RegExp = realRegExp;
    realRegExp = undefined;
  }
  return built;
}

describe("route matching on the server (the @remix-run/router patch)", () => {
  it("answers as the untouched router does, for every path, also asked twice", () => {
    const routes = table();
    for (const path of PATHS) {
      const expected = shape(plain.matchRoutes(table(), path));
      expect(shape(patched.matchRoutes(routes, path)), path).toEqual(expected);
      expect(shape(patched.matchRoutes(routes, path)), `${path}, again`).toEqual(expected);
    }
  });

  it("matches one pattern as case-sensitive or not, whole or as a prefix, as the untouched router does", () => {
    for (let round = 0; round < 2; round++) {
      for (const caseSensitive of [false, true]) {
        for (const end of [true, false]) {
          for (const [pattern, pathname] of [["admin/kunder", "/Admin/Kunder/1001"], ["admin/kunder", "/admin/kunder"], ["/journal/:manad?", "/journal/2026-11/x"], ["rapportering/:reportState", "/RAPPORTERING/1"]]) {
            const expected = plain.matchPath({ path: pattern, caseSensitive, end }, pathname);
            expect(patched.matchPath({ path: pattern, caseSensitive, end }, pathname), `${pattern} ${pathname} ${caseSensitive} ${end}`).toEqual(expected);
          }
        }
      }
    }
  });

  it("compiles no pattern again once a table was matched", () => {
    const routes = table();
    for (const path of PATHS) patched.matchRoutes(routes, path);
    expect(regExpsBuilt(() => PATHS.forEach((path) => patched.matchRoutes(routes, path)))).toBe(0);
    // and a new table with the same patterns (the per-request static router's) neither
    expect(regExpsBuilt(() => PATHS.forEach((path) => patched.matchRoutes(table(), path)))).toBe(0);
  });

  it("is the patch made for the installed version", () => {
    const version = (require("@remix-run/router/package.json") as { version: string }).version;
    expect(readdirSync("patches")).toContain(`@remix-run+router+${version}.patch`);
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("const rankedBranches = new WeakMap();");
  });
});
