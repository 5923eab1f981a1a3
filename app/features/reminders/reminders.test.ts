// The e-mail reminders against a real database and a real SMTP server run
// in this process (smtp-server), the mails read back with mailparser — recipients, the
// Swedish text in both parts, the links, at most one a day, the one-click unsubscribe.
import type { AddressInfo } from "node:net";
import { and, eq, inArray } from "drizzle-orm";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer, newDelivery } from "../../../tests/unit/helpers";
import { portal } from "../../../tests/unit/cli-run";
import { addDays } from "../../lib/dates";
import { customerActor } from "../audit/audit.server";
import { smtpTransport } from "./mail.server";
import { readUnsubscribeToken, remind, runReminders, saveReminderSettings, SENDING_STALE_MS, unsubscribe } from "./reminders.server";
import { reminderSettingsSchema } from "./schemas";

const ON = "2027-03-10";
const PORTAL = "https://retur.example.se";
const FROM = "Returportalen <noreply@retur.example.se>";

let server: SMTPServer;
let smtpUrl: string;
const mails: ParsedMail[] = [];
/** Recipients the server refuses (a full mailbox), to try a failed send. */
const refused = new Set<string>();

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address)) return callback(new Error("Mailbox full"));
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          mails.push(mail);
          callback();
        },
        (e: Error) => callback(e),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  await baseData();
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const run = (on = ON) => {
  const transport = smtpTransport(smtpUrl);
  return remind({ on, transport, portalUrl: PORTAL, from: FROM }).finally(() => transport.close());
};

/** A customer with an unreported main paper whose last return day is `on` + `inDays` (7-day window). */
async function shopWithDuePaper(name: string, email: string | null, inDays = 1) {
  const id = await newCustomer({ name });
  await newDelivery(id, { date: addDays(ON, inDays - 7) });
  if (email !== null) await saveReminderSettings(id, { enabled: true, email }, customerActor(id));
  return id;
}

const mailTo = (address: string) => mails.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((t) => t?.value.some((v) => v.address === address)));
const unsubscribeLink = (mail: ParsedMail) => /https:\/\/retur\.example\.se\/avsluta-paminnelser\?t=([^\s"<>]+)/.exec(mail.text ?? "")!;

describe("e-mail reminders", () => {
  it("mails an opted-in retailer once a day: the Swedish text in both parts, the papers, the form and a one-click unsubscribe", async () => {
    const shop = await shopWithDuePaper("Şahin Livs", "sahin@example.se");
    // A second paper due today, and an insert of the same shop not due yet.
    await newDelivery(shop, { date: addDays(ON, -7), titleId: 2, editionId: 1 });
    await newDelivery(shop, { date: addDays(ON, -1), titleId: 1, editionId: 1 });
    const summary = await run();
    expect(summary).toMatchObject({ sent: 1, failed: 0, already: 0 });
    const [mail] = mailTo("sahin@example.se");
    expect(mail.from?.text).toBe('"Returportalen" <noreply@retur.example.se>');
    expect(mail.subject).toBe("Påminnelse: 1 tidning har sista returdag i dag");
    expect(mail.text).toContain("Hej Şahin Livs!");
    expect(mail.text).toContain("1 tidning har sista returdag i dag.\n1 tidning har sista returdag i morgon.");
    expect(mail.text).toContain(`Expressen, utgivningsdag ${addDays(ON, -7)}: sista returdag ${ON}`);
    expect(mail.text).toContain(`Aftonbladet, utgivningsdag ${addDays(ON, -6)}: sista returdag ${addDays(ON, 1)}`);
    expect(mail.text).not.toContain(addDays(ON, -1));
    expect(mail.text).toContain(`${PORTAL}/rapportering/1`);
    expect(mail.html).toContain("Hej Şahin Livs!");
    expect(mail.html).toContain(`href="${PORTAL}/rapportering/1"`);
    const link = unsubscribeLink(mail);
    expect(mail.html).toContain(`href="${link[0]}"`);
    const header = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n\s+/g, " ");
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    expect(header("list-unsubscribe")).toBe(`List-Unsubscribe: <${link[0]}>`);

    // The same day again: nothing more.
    const again = await run();
    expect(again).toMatchObject({ sent: 0, already: 1 });
    expect(mailTo("sahin@example.se")).toHaveLength(1);
    const [logged] = await db().select().from(schema.reminderLog).where(eq(schema.reminderLog.customerId, shop));
    expect(logged).toMatchObject({ day: ON, email: "sahin@example.se", papers: 2, state: "sent" });
  });

  it("mails nobody who did not opt in, turned it off, reported, or was deactivated", async () => {
    const notAsked = await shopWithDuePaper("Kiosk Łódź", null);
    const off = await shopWithDuePaper("Nguyễn Tobak", "nguyen@example.se");
    await saveReminderSettings(off, { enabled: false, email: "nguyen@example.se" }, customerActor(off));
    const reported = await shopWithDuePaper("Pressbyrån Åre", "are@example.se");
    await db().update(schema.deliveries).set({ reportedAt: Date.now() }).where(eq(schema.deliveries.customerId, reported));
    const gone = await shopWithDuePaper("Kiosken Öst", "ost@example.se");
    await db().update(schema.customers).set({ deactivatedAt: Date.now() }).where(eq(schema.customers.id, gone));
    const later = await shopWithDuePaper("Tobak Väst", "vast@example.se", 3);
    const before = mails.length;
    await run();
    expect(mails.length).toBe(before);
    for (const id of [notAsked, off, reported, gone, later]) {
      expect(await db().select().from(schema.reminderLog).where(eq(schema.reminderLog.customerId, id))).toHaveLength(0);
    }
  });

  it("sends one mail per customer when two processes run the job at once", async () => {
    const shop = await shopWithDuePaper("Kiosk Tvåsam", "tva@example.se");
    const day = addDays(ON, 0);
    const [a, b] = await Promise.all([run(day), run(day)]);
    expect(a.sent + b.sent).toBeGreaterThanOrEqual(1);
    expect(mailTo("tva@example.se")).toHaveLength(1);
    expect(await db().select().from(schema.reminderLog).where(eq(schema.reminderLog.customerId, shop))).toHaveLength(1);
  });

  it("retries a refused send on the next run, and says which failed", async () => {
    const shop = await shopWithDuePaper("Kiosk Full", "full@example.se");
    refused.add("full@example.se");
    const first = await run();
    expect(first.failed).toBe(1);
    expect(first.errors[0]).toContain(`kund ${shop}`);
    expect(await db().select().from(schema.reminderLog).where(eq(schema.reminderLog.customerId, shop))).toHaveLength(0);
    refused.delete("full@example.se");
    const second = await run();
    expect(second.sent).toBe(1);
    expect(mailTo("full@example.se")).toHaveLength(1);
  });

  it("takes over a claim left 'sending' by a process that stopped mid-send after 10 minutes, never a fresh one", async () => {
    const crashed = await shopWithDuePaper("Ängby Tobak & Press", "angby@example.se");
    const busy = await shopWithDuePaper("Östra Kiosken", "ostra@example.se");
    const log = schema.reminderLog;
    await db().insert(log).values([
      { customerId: crashed, day: ON, email: "angby@example.se", papers: 1, state: "sending", updatedAt: Date.now() - SENDING_STALE_MS - 1000 },
      { customerId: busy, day: ON, email: "ostra@example.se", papers: 1, state: "sending", updatedAt: Date.now() - 60_000 },
    ]);
    const summary = await run();
    expect(mailTo("angby@example.se")).toHaveLength(1);
    expect(mailTo("ostra@example.se")).toHaveLength(0);
    expect(summary.failed).toBe(0);
    const rows = await db().select({ customerId: log.customerId, state: log.state }).from(log).where(and(eq(log.day, ON), inArray(log.customerId, [crashed, busy])));
    expect(rows.sort((a, b) => a.customerId - b.customerId)).toEqual([
      { customerId: crashed, state: "sent" },
      { customerId: busy, state: "sending" },
    ]);
    // A third run sends no second mail.
    await run();
    expect(mailTo("angby@example.se")).toHaveLength(1);
  });

  it("ends the reminders by the mail's link without a login; a tampered, foreign or expired link does nothing", async () => {
    const shop = await shopWithDuePaper("Kiosk Avslut", "avslut@example.se");
    const other = await shopWithDuePaper("Kiosk Annan", "annan@example.se");
    await run();
    const token = unsubscribeLink(mailTo("avslut@example.se")[0])[1];
    expect(await readUnsubscribeToken(token, ON)).toMatchObject({ customerId: shop, name: "Kiosk Avslut", email: "avslut@example.se", enabled: true });
    const [id, expires, sig] = token.split(".");
    // Another customer's number with this signature, a changed expiry, a changed signature.
    expect(await readUnsubscribeToken(`${other}.${expires}.${sig}`, ON)).toBeNull();
    expect(await readUnsubscribeToken(`${id}.${Number(expires) + 1}.${sig}`, ON)).toBeNull();
    expect(await readUnsubscribeToken(`${id}.${expires}.${sig.slice(0, -1)}${sig.endsWith("A") ? "B" : "A"}`, ON)).toBeNull();
    expect(await readUnsubscribeToken(`${token}\u0000`, ON)).toBeNull();
    // Expired after 60 days.
    expect(await readUnsubscribeToken(token, addDays(ON, 60))).not.toBeNull();
    expect(await readUnsubscribeToken(token, addDays(ON, 61))).toBeNull();

    expect(await unsubscribe(token, { ip: "203.0.113.9" }, ON)).toMatchObject({ customerId: shop, enabled: true });
    // Twice is no error; the other customer keeps theirs.
    expect(await unsubscribe(token, {}, ON)).toMatchObject({ customerId: shop, enabled: false });
    const rows = await db().select().from(schema.emailReminders).where(eq(schema.emailReminders.customerId, shop));
    expect(rows[0].enabled).toBe(false);
    const audit = await db().select().from(schema.auditLog).where(and(eq(schema.auditLog.action, "reminder.unsubscribe"), eq(schema.auditLog.target, `customer:${shop}`)));
    expect(audit).toHaveLength(1);
    expect(audit[0].ip).toBe("203.0.113.9");
    // A new address voids the links sent to the old one.
    const otherToken = unsubscribeLink(mailTo("annan@example.se")[0])[1];
    await saveReminderSettings(other, { enabled: true, email: "annan.ny@example.se" }, customerActor(other));
    expect(await readUnsubscribeToken(otherToken, ON)).toBeNull();
    // The next day: the other customer is reminded (at the new address), this one not.
    await newDelivery(shop, { date: addDays(ON, -5) });
    await newDelivery(other, { date: addDays(ON, -5) });
    await run(addDays(ON, 1));
    expect(mailTo("avslut@example.se")).toHaveLength(1);
    expect(mailTo("annan@example.se")).toHaveLength(1);
    expect(mailTo("annan.ny@example.se")).toHaveLength(1);
  });

  it("without SMTP_URL only writes what it would send, and claims nothing (portal remind)", async () => {
    const shop = await shopWithDuePaper("Kiosk Logg", "logg@example.se");
    const lines: string[] = [];
    const s = await runReminders({ on: ON, write: (l) => lines.push(l), env: { PORTAL_URL: PORTAL } });
    expect(s.sent).toBe(0);
    // The one mail it would send, as a line: no more, none to anybody else.
    expect(s.logged).toBe(1);
    expect(lines.map((l) => JSON.parse(l).wouldSend)).toEqual([
      {
        from: "Returportalen <noreply@returportalen.example>",
        to: "logg@example.se",
        subject: "Påminnelse: 1 tidning har sista returdag i morgon",
        unsubscribe: `<${PORTAL}/avsluta-paminnelser?t=…>`,
      },
    ]);
    const cli = await portal(["remind", "--date", ON], { env: { SMTP_URL: "", PORTAL_URL: PORTAL } });
    expect(cli.code).toBe(0);
    expect(cli.stdout).toContain('"to":"logg@example.se"');
    // The log never holds a working unsubscribe link: the token is left out.
    expect(cli.stdout).toContain(`${PORTAL}/avsluta-paminnelser?t=…`);
    expect(cli.stdout).not.toMatch(/t=\d+\.\d{8}\.[\w-]+/);
    expect(cli.stdout).toMatch(/Påminnelser 2027-03-10: 0 skickade, \d+ loggade \(SMTP_URL saknas, inget skickat\)/);
    expect(await db().select().from(schema.reminderLog).where(eq(schema.reminderLog.customerId, shop))).toHaveLength(0);
    // With SMTP_URL the same command sends, and a bad date is a usage error.
    const sent = await portal(["remind", "--date", ON], { env: { SMTP_URL: smtpUrl, PORTAL_URL: PORTAL } });
    expect(sent.code).toBe(0);
    expect(sent.stdout).toMatch(/Påminnelser 2027-03-10: [1-9]\d* skickade/);
    expect(mailTo("logg@example.se")).toHaveLength(1);
    expect((await portal(["remind", "--date", "2027-02-30"])).code).toBe(2);
    // In production a mail is never sent with a guessed address in its links.
    const noUrl = await portal(["remind", "--date", ON], { env: { SMTP_URL: smtpUrl, PORTAL_URL: "", NODE_ENV: "production" } });
    expect(noUrl.code).toBe(1);
    expect(noUrl.stderr).toMatch(/^portal: PORTAL_URL saknas/);
    void lines;
  });

  it("takes an address to turn reminders on, refuses a bad one, and keeps one typed with them off", () => {
    const parse = (form: Record<string, string>) => reminderSettingsSchema.safeParse(form);
    expect(parse({ paminnelser: "1", epost: " butik@example.se " })).toMatchObject({ success: true, data: { enabled: true, email: "butik@example.se" } });
    expect(parse({ paminnelser: "1", epost: "" }).error?.issues[0].message).toBe("Ange e-postadressen som påminnelserna ska skickas till.");
    for (const bad of ["butik", "butik@example", "a b@example.se", "butik@example.se\r\nBcc: x@y.se", `${"a".repeat(250)}@example.se`, "<a@b.se>"]) {
      expect(parse({ paminnelser: "1", epost: bad }).error?.issues[0].message, bad).toBe("Ange en giltig e-postadress, t.ex. butik@example.se.");
    }
    expect(parse({ epost: "butik@example.se" })).toMatchObject({ success: true, data: { enabled: false, email: "butik@example.se" } });
    expect(parse({})).toMatchObject({ success: true, data: { enabled: false, email: "" } });
  });
});
