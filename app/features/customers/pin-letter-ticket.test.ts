// The PIN letter's ticket opens only for the admin and customer it was sealed for, until
// it runs out, and not after any change to its bytes.
import { describe, expect, it } from "vitest";
import { openPinLetterTicket, PIN_LETTER_TICKET_MS, sealPinLetterTicket } from "./pin-letter-ticket.server";

describe("the PIN letter ticket", () => {
  const now = Date.parse("2026-11-25T08:00:00Z");
  const ticket = sealPinLetterTicket(7, 1003, "482913", now);

  it("holds the PIN sealed and opens for its admin and customer while it lasts", () => {
    expect(JSON.stringify(ticket)).not.toContain("482913");
    expect(openPinLetterTicket(ticket, 7, 1003, now + PIN_LETTER_TICKET_MS - 1)).toBe("482913");
  });

  it("opens for nobody else, never after ten minutes, never when tampered with", () => {
    expect(openPinLetterTicket(ticket, 8, 1003, now)).toBeNull();
    expect(openPinLetterTicket(ticket, 7, 1004, now)).toBeNull();
    expect(openPinLetterTicket(ticket, 7, 1003, now + PIN_LETTER_TICKET_MS)).toBeNull();
    // The binding is inside the seal: relabelling the ticket does not move it.
    expect(openPinLetterTicket({ ...ticket, staffId: 8 }, 8, 1003, now)).toBeNull();
    const bytes = Buffer.from(ticket.sealed, "base64url");
    bytes[bytes.length - 1] ^= 1;
    expect(openPinLetterTicket({ ...ticket, sealed: bytes.toString("base64url") }, 7, 1003, now)).toBeNull();
    expect(openPinLetterTicket({ ...ticket, until: "later" }, 7, 1003, now)).toBeNull();
    expect(openPinLetterTicket(null, 7, 1003, now)).toBeNull();
  });
});
