// The request patch (patches/@remix-run+server-runtime+2.17.5.patch; why:
// docs/decisions/010-statement-cache.md, section 7c). Every loader of a page gets the one
// Request the page was asked with when there is nothing to strip from its address, so what
// the portal keeps per request (the session and its user) is read once per page. Where
// Remix's own parameters are in the address, a loader still gets it without them.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
// What the server loads: the CommonJS build (package.json "main").
const { callRouteLoader, callRouteAction } = require("@remix-run/server-runtime/dist/data.js") as {
  callRouteLoader: (args: object) => Promise<unknown>;
  callRouteAction: (args: object) => Promise<unknown>;
};

const seen = (call: (args: object) => Promise<unknown>, request: Request) =>
  call({ request, params: {}, loadContext: {}, routeId: "r", singleFetch: true, loader: ({ request }: { request: Request }) => request, action: ({ request }: { request: Request }) => request }) as Promise<Request>;

describe("loaders share the page's request", () => {
  it("hands every loader and the action the request itself when its address has nothing of Remix's", async () => {
    for (const url of ["http://x/rapportering/1", "http://x/historik?fran=2026-03-01&sok=%C5%9Eahin+Livs", "http://x/admin/kunder?sida=2"]) {
      const request = new Request(url, { headers: { cookie: "rp_session=a" } });
      const [a, b, c] = await Promise.all([seen(callRouteLoader, request), seen(callRouteLoader, request), seen(callRouteAction, request)]);
      expect(a).toBe(request);
      expect(b).toBe(request);
      expect(c).toBe(request);
    }
  });

  it("still strips ?index and _routes, keeping the rest of the address, the method, the headers and the body", async () => {
    const request = new Request("http://x/?index&_routes=root&sok=a", { method: "POST", body: "kundnummer=20001", headers: { "content-type": "application/x-www-form-urlencoded", cookie: "rp_session=a" } });
    const got = await seen(callRouteAction, request);
    expect(got).not.toBe(request);
    expect(got.url).toBe("http://x/?sok=a");
    expect(got.method).toBe("POST");
    expect(got.headers.get("cookie")).toBe("rp_session=a");
    expect(await got.text()).toBe("kundnummer=20001");
    // An index value that names something is kept, as Remix keeps it.
    expect((await seen(callRouteLoader, new Request("http://x/?index=1&index"))).url).toBe("http://x/?index=1");
  });

  it("through Remix's request handler: a page's loaders get the page's request; after an action, one GET of the router's own, never the action's", async () => {
    // A build of two routes (root and a page with an action), rendered without React: what
    // matters is which request each function is handed.
    const seen: [string, Request][] = [];
    const record = (name: string) => ({ request }: { request: Request }) => (seen.push([name, request]), null);
    const build = {
      mode: "production",
      entry: { module: { default: (_request: Request, status: number, headers: Headers) => new Response("sida", { status, headers }) } },
      routes: {
        root: { id: "root", path: "", module: { loader: record("root"), default: () => null } },
        page: { id: "page", parentId: "root", path: "sida", module: { loader: record("page"), action: (args: { request: Request }) => (record("action")(args), { sparat: true }), default: () => null } },
      },
      assets: {
        routes: { root: { id: "root", path: "", module: "/root.js", hasLoader: true }, page: { id: "page", parentId: "root", path: "sida", module: "/page.js", hasLoader: true, hasAction: true } },
        entry: { module: "/entry.js", imports: [] },
        url: "/manifest.js",
        version: "1",
      },
      publicPath: "/",
      assetsBuildDirectory: "build/client",
      future: { v3_singleFetch: true },
      isSpaMode: false,
    } as unknown as ServerBuild;
    const handle = createRequestHandler(build, "production");

    const page = new Request("http://x/sida?sok=%C5%9Eahin%20Livs");
    expect((await handle(page)).status).toBe(200);
    expect(seen.map(([name, request]) => [name, request === page])).toEqual([
      ["root", true],
      ["page", true],
    ]);

    // What the portal keeps per request for the action (the user it read before the save)
    // must never reach the loaders that draw the page after it.
    seen.length = 0;
    const save = new Request("http://x/sida", { method: "POST", body: "antal=3", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect((await handle(save)).status).toBe(200);
    const [action, root, pageLoader] = seen;
    expect(seen.map(([name]) => name)).toEqual(["action", "root", "page"]);
    expect(action[1]).toBe(save);
    expect(root[1]).not.toBe(save);
    expect(root[1].method).toBe("GET");
    expect(pageLoader[1]).toBe(root[1]);
  });

  it("is the patch of the installed version", () => {
    const version = (require("@remix-run/server-runtime/package.json") as { version: string }).version;
    const patch = readFileSync(`patches/@remix-run+server-runtime+${version}.patch`, "utf8");
    expect(patch).toContain('if (!url.searchParams.has("index")) return request;');
  });
});
