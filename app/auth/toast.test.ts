// A one-time message belongs to the page its request was sent to (decision 035), and only
// a request sent after the answer that set it carries it: another tab's page neither shows
// nor takes it; an unread one is dropped after two minutes.
import { describe, expect, it } from "vitest";
import { requestPage, takeToast, toastCookieHeader, TOAST_KEPT_MS } from "./session.server";

const get = (url: string, cookie?: string) => new Request(`http://portal.test${url}`, cookie ? { headers: { cookie } } : {});
/** The cookie pair a Set-Cookie header gives the browser. */
const pair = (setCookie: string) => setCookie.split(";")[0]!;

describe("toasts", () => {
  it("name the page of a document or data request", () => {
    expect(requestPage(get("/admin/holidays?flik=1"))).toBe("/admin/holidays");
    expect(requestPage(get("/admin/holidays.data?_routes=root"))).toBe("/admin/holidays");
    expect(requestPage(get("/_root.data"))).toBe("/");
  });

  it("are taken by their page only; another page leaves them; old ones are dropped", async () => {
    const now = 1_000_000;
    const saved = pair(await toastCookieHeader(get("/admin/holidays"), "Sparat.", "/admin/holidays?flik=1", now));
    expect(await takeToast(get("/admin/messages", saved), now + 10)).toEqual({ text: null, setCookie: null });
    const taken = await takeToast(get("/admin/holidays.data", saved), now + 20);
    expect(taken.text).toBe("Sparat.");
    expect(taken.setCookie).toMatch(/^rp_toast=; Max-Age=0;/);
    const old = pair(await toastCookieHeader(get("/admin/holidays"), "Gammalt.", "/admin/holidays", now));
    const dropped = await takeToast(get("/admin/messages", old), now + TOAST_KEPT_MS + 1);
    expect(dropped.text).toBeNull();
    expect(dropped.setCookie).toMatch(/Max-Age=0/);
  });

  it("are not taken from a request without the cookie, nor from a forged one", async () => {
    expect(await takeToast(get("/admin/holidays"))).toEqual({ text: null, setCookie: null });
    const forged = `rp_toast=${Buffer.from(JSON.stringify({ text: "Falskt.", path: "/admin/holidays", at: Date.now() })).toString("base64")}`;
    expect((await takeToast(get("/admin/holidays", forged))).text).toBeNull();
  });

  it("over HTTPS live in a __Host- cookie", async () => {
    expect(await toastCookieHeader(new Request("https://portal.test/admin"), "Sparat.", "/admin")).toMatch(/^__Host-rp_toast=.*; Path=\/; .*HttpOnly; Secure; SameSite=Lax$/);
  });
});
