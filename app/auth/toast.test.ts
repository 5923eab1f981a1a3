// A one-time message belongs to the page its request was sent to (decision 035): another
// tab's page neither shows nor takes it; an unread one is dropped after two minutes.
import { createSession } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { requestPage, takeToast, TOAST_KEPT_MS, type PortalSession } from "./session.server";

const session = (toast?: unknown) => createSession(toast === undefined ? {} : { __flash_toast__: toast }, "id") as unknown as PortalSession;
const get = (url: string) => new Request(`http://portal.test${url}`);

describe("toasts", () => {
  it("name the page of a document or data request", () => {
    expect(requestPage(get("/admin/holidays?flik=1"))).toBe("/admin/holidays");
    expect(requestPage(get("/admin/holidays.data?_routes=root"))).toBe("/admin/holidays");
    expect(requestPage(get("/_root.data"))).toBe("/");
  });

  it("are taken by their page only; another page leaves them; old ones are dropped", () => {
    const now = 1_000_000;
    const s = session({ text: "Sparat.", path: "/admin/holidays", at: now });
    expect(takeToast(s, get("/admin/messages"), now + 10)).toEqual({ text: null, changed: false });
    expect(takeToast(s, get("/admin/holidays.data"), now + 20)).toEqual({ text: "Sparat.", changed: true });
    expect(takeToast(s, get("/admin/holidays"), now + 30)).toEqual({ text: null, changed: false });
    const old = session({ text: "Gammalt.", path: "/admin/holidays", at: now });
    expect(takeToast(old, get("/admin/messages"), now + TOAST_KEPT_MS + 1)).toEqual({ text: null, changed: true });
    expect(takeToast(old, get("/admin/holidays"), now + TOAST_KEPT_MS + 2)).toEqual({ text: null, changed: false });
    // A message stored before messages named their page is shown where it is read.
    expect(takeToast(session("Förr."), get("/oppettider"), now)).toEqual({ text: "Förr.", changed: true });
  });
});
