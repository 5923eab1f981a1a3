// The recall's mail (decision 036): one to every shop it reaches that has an address (the
// reminders' first, else the contact address), at once and never twice — two processes
// sending at the same time share the work; a failed one is tried again after a pause; an
// ended recall sends no more.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import type { MailTransport, OutgoingMail } from "~/features/reminders/mail.server";
import { createRecall, endRecall } from "./recalls.server";
import { RECALL_MAIL_RETRY_MINUTES, sendRecallMails } from "./recall-mails.server";

const admin = { id: "staff:1" };
const NOW = Date.parse("2026-11-28T06:45:00Z");

/** A transport that keeps what it sends, slowly (so two senders overlap), failing for the addresses in `down`. */
function catcher(down = new Set<string>()): MailTransport & { mails: OutgoingMail[] } {
  const mails: OutgoingMail[] = [];
  return {
    delivers: true,
    mails,
    async send(mail) {
      await new Promise((r) => setTimeout(r, 2));
      if (down.has(mail.to)) throw new Error("421 service not available");
      mails.push(mail);
      return { messageId: `<${mails.length}@test>` };
    },
    close: () => undefined,
  };
}

const shops: number[] = [];

beforeAll(async () => {
  await baseData();
  for (let i = 0; i < 40; i++) {
    const id = await newCustomer({ name: i === 0 ? "Şahin Livs" : `Kiosk ${i}`, distributorId: 1 + (i % 2) });
    shops.push(id);
    await newDelivery(id, { date: "2026-11-27", titleId: 2, editionId: 2, delivered: 10 + i });
    await db().update(schema.customers).set({ email: i === 39 ? "" : `kiosk${i}@example.se` }).where(eq(schema.customers.id, id));
  }
  // The reminders' address wins over the contact address.
  await db().insert(schema.emailReminders).values({ customerId: shops[0], email: "sahin.paminnelser@example.se", enabled: false, key: "k" });
});

describe("recall mails", () => {
  it("go to every shop with an address once, even with two senders at once", async () => {
    const { id } = await createRecall(
      { titleId: 2, editionIds: [2], from: "2026-11-27", to: "2026-11-27", reason: "Fel bilaga: domstolsbeslut", action: "returnera", distributorIds: null, deadlineDate: "2026-11-28", deadlineTime: "12:00" },
      admin,
      NOW,
    );
    const a = catcher();
    const b = catcher();
    const options = { portalUrl: "https://retur.example.se", from: "Returportalen <noreply@example.se>" };
    const [sa, sb] = await Promise.all([sendRecallMails({ ...options, transport: a }), sendRecallMails({ ...options, transport: b })]);
    const all = [...a.mails, ...b.mails];
    expect(all).toHaveLength(39);
    expect(new Set(all.map((m) => m.to)).size).toBe(39);
    expect(sa.sent + sb.sent).toBe(39);
    expect(sa.noAddress + sb.noAddress).toBe(1);
    const sahin = all.find((m) => m.to === "sahin.paminnelser@example.se")!;
    expect(sahin.subject).toBe(`Återkallelse ${id}: Expressen – Kvällsposten, 2026-11-27 – ta bort tidningarna från hyllan`);
    expect(sahin.text).toContain("Hej Şahin Livs!");
    expect(sahin.text).toContain("Gör så här: Ta bort från hyllan och returnera, senast 2026-11-28 12:00.");
    expect(sahin.text).toContain("Ni fick 10 ex.");
    expect(sahin.text).toContain("https://retur.example.se/aterkallelser");
    expect(sahin.html).toContain("Şahin Livs");
    // Nothing goes twice.
    const again = catcher();
    expect((await sendRecallMails({ ...options, transport: again })).sent).toBe(0);
    expect(again.mails).toHaveLength(0);
    const rows = await db().select().from(schema.recallCustomers).where(eq(schema.recallCustomers.recallId, id));
    expect(rows.filter((r) => r.mailState === "sent")).toHaveLength(39);
    expect(rows.filter((r) => r.mailState === "none").map((r) => r.customerId)).toEqual([shops[39]]);
  });

  it("tries a failed mail again after a pause, and an ended recall sends no more", async () => {
    const { id } = await createRecall(
      { titleId: 2, editionIds: [2], from: "2026-11-27", to: "2026-11-27", reason: "Andra", action: "forstor", distributorIds: [1], deadlineDate: "2026-11-29", deadlineTime: "12:00" },
      admin,
      NOW,
    );
    const options = { portalUrl: "https://retur.example.se", from: "r@example.se" };
    let t = NOW;
    const down = catcher(new Set(["kiosk2@example.se"]));
    const first = await sendRecallMails({ ...options, transport: down, now: () => t });
    expect([first.sent, first.failed]).toEqual([19, 1]);
    // At once again: not due yet.
    const early = catcher();
    expect((await sendRecallMails({ ...options, transport: early, now: () => t + 30_000 })).sent).toBe(0);
    t += RECALL_MAIL_RETRY_MINUTES[0] * 60_000;
    const up = catcher();
    expect((await sendRecallMails({ ...options, transport: up, now: () => t })).sent).toBe(1);
    expect(up.mails.map((m) => m.to)).toEqual(["kiosk2@example.se"]);
    // Ended before a retry was due: nothing more.
    const third = await createRecall(
      { titleId: 2, editionIds: [2], from: "2026-11-27", to: "2026-11-27", reason: "Tredje", action: "forstor", distributorIds: [2], deadlineDate: "2026-11-29", deadlineTime: "12:00" },
      admin,
      NOW,
    );
    await endRecall(third.id, admin);
    const none = catcher();
    expect((await sendRecallMails({ ...options, transport: none, now: () => t })).sent).toBe(0);
    expect(id).toBeGreaterThan(0);
  });
});
