import { describe, expect, it } from "vitest";
import { documentRetryAfter } from "./unanswered.server";

describe("a page's Retry-After after a form", () => {
  it("is the action's own on a busy 503 or a limit's 429", () => {
    const busy = { "routes/_retailer.rapportering": new Headers({ "Retry-After": "5" }) };
    expect(documentRetryAfter(503, busy)).toBe("5");
    expect(documentRetryAfter(429, { root: new Headers(), "routes/login": new Headers({ "Retry-After": "60" }) })).toBe("60");
  });

  it("is none for a 503 that is no passing state (a setting missing) and for any other status", () => {
    // Before, every 503 page got Retry-After: 5, a missing PORTAL_URL too.
    expect(documentRetryAfter(503, { "routes/_staff.admin.kunder.$kund.pinbrev": new Headers() })).toBeNull();
    expect(documentRetryAfter(503, undefined)).toBeNull();
    expect(documentRetryAfter(400, { "routes/x": new Headers({ "Retry-After": "5" }) })).toBeNull();
  });
});
