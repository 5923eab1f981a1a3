// The PIN letter's ticket: "Ny pinkod" seals the new PIN into the admin's own server-side
// session, bound to that admin and that customer, for ten minutes; "Skriv ut pinkodsbrev"
// spends it. The letter is made only from the ticket, never from a PIN the browser
// sends, so the letter route cannot be asked whether a PIN is right (docs/decisions/
// 019-production-start.md). Sealed with AES-256-GCM under a key derived from
// SESSION_SECRET, so the sessions table (and a backup of it) never holds the PIN in clear.
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "~/config.server";
import { portalNow } from "../../../db/clock";

export const PIN_LETTER_TICKET_MS = 10 * 60_000;

/** What the session holds: no PIN in clear. */
export type PinLetterTicket = { staffId: number; customerId: number; until: number; sealed: string };

const key = Buffer.from(hkdfSync("sha256", config.sessionSecret, "returportalen", "pin-letter-ticket", 32));
const bound = (staffId: number, customerId: number) => Buffer.from(`${staffId}:${customerId}`);

export function sealPinLetterTicket(staffId: number, customerId: number, pin: string, now = portalNow()): PinLetterTicket {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(bound(staffId, customerId));
  const body = Buffer.concat([cipher.update(pin, "utf8"), cipher.final()]);
  return { staffId, customerId, until: now + PIN_LETTER_TICKET_MS, sealed: Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url") };
}

/** The PIN of a ticket for this admin and customer that has not run out; else null. */
export function openPinLetterTicket(value: unknown, staffId: number, customerId: number, now = portalNow()): string | null {
  if (!value || typeof value !== "object") return null;
  const t = value as Partial<PinLetterTicket>;
  if (t.staffId !== staffId || t.customerId !== customerId || typeof t.until !== "number" || t.until <= now || typeof t.sealed !== "string") return null;
  try {
    const raw = Buffer.from(t.sealed, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
    decipher.setAAD(bound(staffId, customerId));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}
