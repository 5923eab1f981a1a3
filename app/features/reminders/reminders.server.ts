// E-mail reminders (decision 017): the retailer's opt-in, the signed and
// expiring unsubscribe link, and the daily job that mails those whose papers are due
// today or tomorrow and not reported — at most once per customer and day, however many
// processes run it (reminder_log's unique row is claimed before the mail is sent).
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, inArray, isNull, lt, not, sql } from "drizzle-orm";
import { getDb, schema, writeTransaction } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { papersDue } from "~/features/returns/index.server";
import { addDays, today } from "~/lib/dates";
import { PORTAL_URL_MISSING, readConfig } from "~/config.server";
import { refuse } from "~/lib/refusal";
import { mailTransport, type MailTransport } from "./mail.server";
import { buildReminderMail } from "./reminder-mail.server";
import type { ReminderSettingsInput } from "./schemas";
import { UNSUBSCRIBE_DAYS } from "./words";
import { portalNow } from "../../../db/clock";

export type ReminderSettings = { enabled: boolean; email: string; lastSent: { day: string; email: string } | null };

/** The retailer's settings; the address defaults to the one staff keep on the customer. */
export async function getReminderSettings(customerId: number): Promise<ReminderSettings> {
  const r = schema.emailReminders;
  const c = schema.customers;
  const [row] = await getDb()
    .select({ enabled: r.enabled, email: r.email, fallback: c.email })
    .from(c)
    .leftJoin(r, eq(r.customerId, c.id))
    .where(eq(c.id, customerId));
  const [last] = await getDb()
    .select({ day: schema.reminderLog.day, email: schema.reminderLog.email })
    .from(schema.reminderLog)
    .where(and(eq(schema.reminderLog.customerId, customerId), eq(schema.reminderLog.state, "sent")))
    .orderBy(sql`${schema.reminderLog.day} desc`)
    .limit(1);
  return { enabled: row?.enabled ?? false, email: row?.email ?? row?.fallback ?? "", lastSent: last ?? null };
}

/** Stores the opt-in and address (the customer from the session only). Audited when it changes. */
export async function saveReminderSettings(customerId: number, input: ReminderSettingsInput, actor: Actor): Promise<void> {
  const r = schema.emailReminders;
  await writeTransaction(async (tx) => {
    const [before] = await tx.select({ enabled: r.enabled, email: r.email }).from(r).where(eq(r.customerId, customerId));
    if (before && before.enabled === input.enabled && before.email === input.email) return;
    // A new address gets a new key: links in mails to the old one stop working.
    const key = randomBytes(32).toString("base64url");
    await tx
      .insert(r)
      .values({ customerId, email: input.email, enabled: input.enabled, key })
      .onConflictDoUpdate({ target: r.customerId, set: { email: input.email, enabled: input.enabled, updatedAt: portalNow(), ...(before && before.email !== input.email ? { key } : {}) } });
    await audit({ actor, action: input.enabled ? "reminder.on" : "reminder.off", target: `customer:${customerId}`, detail: { email: input.email } }, tx);
  });
}

// The unsubscribe token: customer.expiry.signature, the signature an HMAC of the first two
// with the customer's own key. Stockholm dates; the link works through its expiry day.
const sign = (key: string, payload: string) => createHmac("sha256", key).update(payload).digest("base64url").slice(0, 32);

export function unsubscribeToken(customerId: number, key: string, on: string = today()): string {
  const expires = addDays(on, UNSUBSCRIBE_DAYS).replaceAll("-", "");
  const payload = `${customerId}.${expires}`;
  return `${payload}.${sign(key, payload)}`;
}

export type UnsubscribeTarget = { customerId: number; name: string; email: string; enabled: boolean };

/** Whose reminders a token may end, or null: malformed, tampered, expired, or unknown. */
export async function readUnsubscribeToken(token: string, on: string = today()): Promise<UnsubscribeTarget | null> {
  const m = /^(\d{1,5})\.(\d{8})\.([A-Za-z0-9_-]{32})$/.exec(token.trim());
  if (!m) return null;
  const [, id, expires, signature] = m;
  if (`${expires.slice(0, 4)}-${expires.slice(4, 6)}-${expires.slice(6)}` < on) return null;
  const r = schema.emailReminders;
  const [row] = await getDb()
    .select({ key: r.key, email: r.email, enabled: r.enabled, name: schema.customers.name })
    .from(r)
    .innerJoin(schema.customers, eq(schema.customers.id, r.customerId))
    .where(eq(r.customerId, Number(id)));
  if (!row) return null;
  const expected = Buffer.from(sign(row.key, `${id}.${expires}`));
  if (!timingSafeEqual(expected, Buffer.from(signature))) return null;
  return { customerId: Number(id), name: row.name, email: row.email, enabled: row.enabled };
}

/** Ends the reminders a valid token names; null for a token that is not. Saying it twice is no error. */
export async function unsubscribe(token: string, actor: Omit<Actor, "id">, on: string = today()): Promise<UnsubscribeTarget | null> {
  const target = await readUnsubscribeToken(token, on);
  if (!target) return null;
  if (target.enabled) {
    await writeTransaction(async (tx) => {
      await tx.update(schema.emailReminders).set({ enabled: false, updatedAt: portalNow() }).where(eq(schema.emailReminders.customerId, target.customerId));
      await audit({ actor: { ...actor, id: `customer:${target.customerId}` }, action: "reminder.unsubscribe", target: `customer:${target.customerId}`, detail: { email: target.email } }, tx);
    });
  }
  return target;
}

export type RemindSummary = { day: string; optedIn: number; due: number; sent: number; logged: number; already: number; failed: number; errors: string[] };

const CHUNK = 500;

/**
 * A claim still "sending" after this long was left by a process that stopped mid-send (a
 * crash, a restart): the next run takes it over. Its mail may have gone out just before
 * the stop; a second reminder that day is the lesser harm than none.
 */
export const SENDING_STALE_MS = 10 * 60_000;

/**
 * The day's reminders: every opted-in, active customer with papers whose last return day
 * is `on` or the day after and that are not reported gets one mail, unless one went out
 * today already. With a transport that only logs (no SMTP_URL), nothing is claimed, so the
 * mails go out once SMTP is configured. A failed send releases its claim: the next run
 * (the server retries the same day) tries again; a claim left "sending" by a process
 * that stopped is taken over after SENDING_STALE_MS.
 */
export async function remind(options: { on?: string; transport: MailTransport; portalUrl: string; from: string }): Promise<RemindSummary> {
  const on = options.on ?? today();
  const r = schema.emailReminders;
  const c = schema.customers;
  const log = schema.reminderLog;
  const optedIn = await getDb()
    .select({ customerId: r.customerId, email: r.email, key: r.key, name: c.name })
    .from(r)
    .innerJoin(c, eq(c.id, r.customerId))
    .where(and(eq(r.enabled, true), isNull(c.deactivatedAt)))
    .orderBy(r.customerId);
  const summary: RemindSummary = { day: on, optedIn: optedIn.length, due: 0, sent: 0, logged: 0, already: 0, failed: 0, errors: [] };
  for (let i = 0; i < optedIn.length; i += CHUNK) {
    const part = optedIn.slice(i, i + CHUNK);
    const due = await papersDue(
      part.map((p) => p.customerId),
      on,
      1,
    );
    const staleBefore = portalNow() - SENDING_STALE_MS;
    const sentToday = new Set(
      (
        await getDb()
          .select({ customerId: log.customerId })
          .from(log)
          .where(and(eq(log.day, on), inArray(log.customerId, part.map((p) => p.customerId)), not(and(eq(log.state, "sending"), lt(log.updatedAt, staleBefore))!)))
      ).map((row) => row.customerId),
    );
    for (const p of part) {
      const papers = due.get(p.customerId) ?? [];
      if (papers.length === 0) continue;
      summary.due++;
      if (sentToday.has(p.customerId)) {
        summary.already++;
        continue;
      }
      const mail = buildReminderMail({
        to: p.email,
        customerId: p.customerId,
        name: p.name,
        on,
        papers,
        portalUrl: options.portalUrl,
        unsubscribeUrl: `${options.portalUrl}/avsluta-paminnelser?t=${unsubscribeToken(p.customerId, p.key, on)}`,
      });
      if (!options.transport.delivers) {
        await options.transport.send({ ...mail, from: options.from });
        summary.logged++;
        continue;
      }
      // Claim the day first: another process running the job at the same time skips it.
      // A stale claim (its process stopped mid-send) is taken over.
      const claimed = await writeTransaction((tx) =>
        tx
          .insert(log)
          .values({ customerId: p.customerId, day: on, email: p.email, papers: papers.length, state: "sending" })
          .onConflictDoUpdate({
            target: [log.customerId, log.day],
            set: { email: p.email, papers: papers.length, updatedAt: portalNow() },
            setWhere: and(eq(log.state, "sending"), lt(log.updatedAt, staleBefore)),
          })
          .returning({ id: log.id }),
      );
      if (claimed.length === 0) {
        summary.already++;
        continue;
      }
      try {
        const { messageId } = await options.transport.send({ ...mail, from: options.from });
        await writeTransaction((tx) => tx.update(log).set({ state: "sent", messageId, updatedAt: portalNow() }).where(eq(log.id, claimed[0].id)));
        summary.sent++;
      } catch (error) {
        await writeTransaction((tx) => tx.delete(log).where(eq(log.id, claimed[0].id)));
        summary.failed++;
        if (summary.errors.length < 5) summary.errors.push(`kund ${p.customerId}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
  }
  return summary;
}

export function remindSummaryText(s: RemindSummary): string {
  const parts = [
    `Påminnelser ${s.day}: ${s.sent} skickade`,
    s.logged ? `${s.logged} loggade (SMTP_URL saknas, inget skickat)` : null,
    s.already ? `${s.already} redan skickade i dag` : null,
    s.failed ? `${s.failed} misslyckades (${s.errors.join("; ")})` : null,
    `${s.optedIn - s.due} av ${s.optedIn} påslagna utan tidningar att påminna om`,
  ];
  return parts.filter(Boolean).join(", ") + ".";
}

/**
 * The day's reminders as configured (SMTP_URL, MAIL_FROM, PORTAL_URL): `portal remind`
 * and the server's daily schedule. `write` gets the lines of the logging transport.
 */
export async function runReminders(options: { on?: string; write: (line: string) => void; env?: Record<string, string | undefined> }): Promise<RemindSummary> {
  const config = readConfig(options.env ?? process.env, { lenient: true });
  if (config.portalUrl === null) throw refuse.invalid(PORTAL_URL_MISSING);
  const transport = mailTransport(config, options.write);
  try {
    return await remind({ on: options.on, transport, portalUrl: config.portalUrl, from: config.mailFrom });
  } finally {
    transport.close();
  }
}
