// The route-matching patches (patches/@remix-run+router+1.23.3.patch,
// patches/react-router-dom+6.30.4.patch, patches/@remix-run+react+2.17.5.patch; why:
// docs/decisions/010-statement-cache.md, section 7). On the server a route table is
// flattened and ranked once, a route's pattern compiled once, a path matched once per table,
// and the render's route table made once per build, instead of at every request (a page
// request matched the whole table four to six times). The answers must not change.
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

  it("answers a path asked again from what it kept, in objects of its own, past the limit of kept paths too", () => {
    const routes = table();
    const path = "/admin/kunder/1001/pinbrev";
    const expected = shape(plain.matchRoutes(table(), path));
    const first = patched.matchRoutes(routes, path)!;
    // A caller that changes what it got changes nothing for the next request.
    (first[0].params as Record<string, string>).kund = "9999";
    first.push(first[0]);
    const again = patched.matchRoutes(routes, path)!;
    expect(shape(again)).toEqual(expected);
    expect(again[0]).not.toBe(first[0]);
    // One params object for the branch's matches, as the untouched router makes it.
    const untouched = plain.matchRoutes(table(), path)!;
    expect(untouched[0].params).toBe(untouched[untouched.length - 1].params);
    expect(again[0].params).toBe(again[again.length - 1].params);
    // A path no route answers, and one longer than a real one, answer as before (neither is kept).
    for (const p of ["/admin/kunder/1001/pinbrev/mer", `/admin/kunder/${"x".repeat(300)}`]) expect(shape(patched.matchRoutes(routes, p)), p).toEqual(shape(plain.matchRoutes(table(), p)));
    for (let i = 0; i < 2_100; i++) patched.matchRoutes(routes, `/admin/kunder/${i}`);
    for (const p of PATHS) expect(shape(patched.matchRoutes(routes, p)), p).toEqual(shape(plain.matchRoutes(table(), p)));
  });

  it("converts the server's render table to data routes once, and renders from it as from a new one", async () => {
    // What RemixServer renders with (the CommonJS build the server loads).
    const server = require("react-router-dom/server.js") as typeof import("react-router-dom/server");
    const routes = () => [{ id: "root", path: "/", children: [{ id: "kund", path: "admin/kunder/:kund" }, { id: "login", path: "login" }] }];
    const kept = routes();
    for (const [path, ids] of [["/admin/kunder/1001", ["root", "kund"]], ["/login", ["root", "login"]]] as const) {
      const context = await server.createStaticHandler(routes()).query(new Request(`http://portal.example${path}`));
      if (context instanceof Response) throw new Error("no context");
      const one = server.createStaticRouter(kept, context);
      const two = server.createStaticRouter(kept, context);
      expect(two.routes).toBe(one.routes);
      expect(two.state.matches.map((m) => m.route.id)).toEqual(ids);
      // The matches are the kept data routes, as a new table's would be its own.
      expect(two.state.matches[1].route).toBe(one.routes[0].children![ids[1] === "kund" ? 0 : 1]);
      const fresh = server.createStaticRouter(routes(), context);
      expect(fresh.routes).not.toBe(one.routes);
      expect(fresh.state.matches.map((m) => m.route.id)).toEqual(ids);
    }
  });

  it("renders with the route table it made for the build, made again when a route's module is another", async () => {
    const { createElement } = require("react") as typeof import("react");
    const { renderToString } = require("react-dom/server") as typeof import("react-dom/server");
    const { RemixServer } = require("@remix-run/react/dist/server.js") as typeof import("@remix-run/react");
    const madeRoutes = require("@remix-run/react/dist/routes.js") as { createServerRoutes: (...args: unknown[]) => unknown };
    const server = require("react-router-dom/server.js") as typeof import("react-router-dom/server");
    // One build's manifest of routes, kept by the server as it is here.
    const manifest = {
      routes: { root: { id: "root", path: "", hasAction: false, hasLoader: false, hasClientAction: false, hasClientLoader: false, hasErrorBoundary: false, module: "/root.js" } },
      entry: { module: "/entry.js", imports: [] },
      url: "/manifest.js",
      version: "1",
    };
    const render = async (root: { default: () => string }) => {
      const staticHandlerContext = await server.createStaticHandler([{ id: "root", path: "/" }]).query(new Request("http://portal.example/"));
      if (staticHandlerContext instanceof Response) throw new Error("no context");
      // Each request's routeModules is a new object of the build's modules (server-runtime).
      const context = { manifest, routeModules: { root }, staticHandlerContext, future: {}, isSpaMode: false, serverHandoffString: "{}", renderMeta: {}, serializeError: (e: Error) => e };
      return renderToString(createElement(RemixServer, { context: context as never, url: "http://portal.example/" }));
    };
    const made = madeRoutes.createServerRoutes;
    let calls = 0;
    madeRoutes.createServerRoutes = (...args: unknown[]) => {
      calls++;
      return made(...args);
    };
    try {
      const v1 = { default: () => "version one" };
      expect(await render(v1)).toContain("version one");
      expect(await render(v1)).toContain("version one");
      expect(calls).toBe(1);
      // Development reloads a route's module and keeps the manifest: the new one is rendered.
      expect(await render({ default: () => "version two" })).toContain("version two");
      expect(calls).toBe(2);
    } finally {
      madeRoutes.createServerRoutes = made;
    }
  });

  it("are the patches made for the installed versions", () => {
    for (const name of ["react-router-dom", "@remix-run/react"]) {
      const version = (require(`${name}/package.json`) as { version: string }).version;
      expect(readdirSync("patches")).toContain(`${name.replace("/", "+")}+${version}.patch`);
    }
    expect(readFileSync(require.resolve("react-router-dom/server.js"), "utf8")).toContain("const dataRoutesByRoutes = new WeakMap();");
    expect(readFileSync(require.resolve("@remix-run/react/dist/server.js"), "utf8")).toContain("const serverRoutesByManifest = new WeakMap();");
  });

  it("is the patch made for the installed version", () => {
    const version = (require("@remix-run/router/package.json") as { version: string }).version;
    expect(readdirSync("patches")).toContain(`@remix-run+router+${version}.patch`);
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("const rankedBranches = new WeakMap();");
    expect(readFileSync(require.resolve("@remix-run/router"), "utf8")).toContain("const matchesByPath = new WeakMap();");
  });
});
