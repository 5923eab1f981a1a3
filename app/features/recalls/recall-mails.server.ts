// The recall's mail (decision 036): every customer a recall reaches gets one, at once, to
// the reminders' address or else the customer's contact address, through the reminders'
// SMTP path (app/features/reminders/mail.server.ts). Each mail is claimed in the database
// before it is sent, so two app servers (or the server and `portal recall create`) never
// both send it; a failed send is tried again after a growing pause; a claim left by a
// process that stopped mid-send is taken over after SENDING_STALE_MS.
import { sql } from "drizzle-orm";
import { getDb, writeTransaction } from "~/db.server";
import { PORTAL_URL_MISSING, readConfig } from "~/config.server";
import { mailTransport, type MailTransport } from "~/features/reminders/mail.server";
import type { ReminderMail } from "~/features/reminders/reminder-mail.server";
import { SENDING_STALE_MS } from "~/features/reminders/reminders.server";
import { stockholmTime } from "~/lib/dates";
import { escapeHtml } from "~/lib/html.server";
import { refuse } from "~/lib/refusal";
import { RECALL_ACTION_TEXT, recallHeading } from "./recall-words";
import type { RecallSummary } from "./recalls.server";
import { portalNow } from "../../../db/clock";

/** Pauses before a failed mail's next tries, in minutes; then every hour. */
export const RECALL_MAIL_RETRY_MINUTES = [1, 2, 5, 10, 20, 40, 60] as const;

/** Mails read per round, and claimed and sent together (over SMTP's pooled connections). */
const ROUND = 500;
const BATCH = 10;

export type RecallMailSummary = { sent: number; logged: number; failed: number; noAddress: number; errors: string[] };

type Pending = Pick<RecallSummary, "titleId" | "dateFrom" | "dateTo" | "reason" | "action" | "deadlineAt"> & {
  recallId: number;
  customerId: number;
  name: string;
  email: string;
  delivered: number;
  attempts: number;
};

export function buildRecallMail(p: Pending & { editions: { description: string }[] }, portalUrl: string): ReminderMail {
  const heading = recallHeading({ id: p.recallId, titleId: p.titleId, editions: p.editions, dateFrom: p.dateFrom, dateTo: p.dateTo });
  const deadline = stockholmTime(p.deadlineAt).slice(0, 16);
  const url = `${portalUrl}/aterkallelser`;
  const subject = `${heading} – ta bort tidningarna från hyllan`;
  const lines = [
    `Hej ${p.name}!`,
    "",
    `${heading.replace(/^Återkallelse \d+: /, "")} återkallas.`,
    p.reason,
    "",
    `Gör så här: ${RECALL_ACTION_TEXT[p.action]}, senast ${deadline}.`,
    `Ni fick ${p.delivered} ex.`,
    "",
    "Bekräfta i Returportalen hur många exemplar ni tog bort:",
    url,
    "",
    "--",
    `Kund ${p.customerId}. En återkallelse skickas till alla butiker som fått tidningen; den går inte att avbeställa.`,
    "",
  ];
  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5">
<p>Hej ${escapeHtml(p.name)}!</p>
<p><strong>${escapeHtml(heading.replace(/^Återkallelse \d+: /, ""))} återkallas.</strong><br>${escapeHtml(p.reason)}</p>
<p>Gör så här: ${escapeHtml(RECALL_ACTION_TEXT[p.action])}, senast ${escapeHtml(deadline)}.<br>Ni fick ${p.delivered} ex.</p>
<p><a href="${escapeHtml(url)}">Bekräfta i Returportalen</a> hur många exemplar ni tog bort.</p>
<p style="color: #555">Kund ${p.customerId}. En återkallelse skickas till alla butiker som fått tidningen; den går inte att avbeställa.</p>
</body></html>
`;
  return { to: p.email, subject, text: lines.join("\n"), html, headers: {} };
}

/** The next try's time after `attempts` failed ones. */
function nextTry(attempts: number, now: number): number {
  return now + RECALL_MAIL_RETRY_MINUTES[Math.min(attempts - 1, RECALL_MAIL_RETRY_MINUTES.length - 1)] * 60_000;
}

/**
 * Sends the mails of open recalls that are due: never tried, failed and due again, or left
 * "sending" by a stopped process. With a transport that only logs (no SMTP_URL) nothing is
 * claimed, so the mails go out once SMTP is configured.
 */
export async function sendRecallMails(options: { transport: MailTransport; portalUrl: string; from: string; now?: () => number }): Promise<RecallMailSummary> {
  const now = options.now ?? portalNow;
  const summary: RecallMailSummary = { sent: 0, logged: 0, failed: 0, noAddress: 0, errors: [] };
  // Customers without an address are marked so, once: nothing to send, nothing to retry.
  const none = await writeTransaction((tx) =>
    tx.run(sql`update recall_customers set mail_state = 'none', mail_at = ${now()}
      where mail_state is null and recall_id in (select id from recalls where ended_at is null)
        and coalesce(nullif((select e.email from email_reminders e where e.customer_id = recall_customers.customer_id), ''),
                     nullif((select c.email from customers c where c.id = recall_customers.customer_id), '')) is null`),
  );
  summary.noAddress = none.rowsAffected;
  const editionsOf = new Map<number, { description: string }[]>();
  const key = (p: { recallId: number; customerId: number }) => sql`(recall_id = ${p.recallId} and customer_id = ${p.customerId})`;
  for (;;) {
    const t = now();
    const due = await getDb().all<Pending>(sql`
      select rc.recall_id as recallId, rc.customer_id as customerId, c.name,
        coalesce(nullif(er.email, ''), c.email) as email, rc.delivered, rc.mail_attempts as attempts,
        r.title_id as titleId, r.date_from as dateFrom, r.date_to as dateTo, r.reason, r.action, r.deadline_at as deadlineAt
      from recall_customers rc
      join recalls r on r.id = rc.recall_id
      join customers c on c.id = rc.customer_id
      left join email_reminders er on er.customer_id = rc.customer_id
      where r.ended_at is null
        and ((rc.mail_state is null and (rc.mail_next_at is null or rc.mail_next_at <= ${t}))
          or (rc.mail_state = 'sending' and rc.mail_at < ${t - SENDING_STALE_MS}))
      order by rc.recall_id, rc.customer_id
      limit ${ROUND}`);
    if (due.length === 0) break;
    for (const p of due) {
      if (!editionsOf.has(p.recallId)) {
        editionsOf.set(p.recallId, await getDb().all<{ description: string }>(sql`select e.description from recall_editions re join recalls r on r.id = re.recall_id
          join editions e on e.title_id = r.title_id and e.edition_id = re.edition_id where re.recall_id = ${p.recallId} order by re.edition_id`));
      }
    }
    const mailOf = (p: Pending) => buildRecallMail({ ...p, editions: editionsOf.get(p.recallId)! }, options.portalUrl);
    if (!options.transport.delivers) {
      // A logging transport claims nothing: one round shows what would go.
      for (const p of due) await options.transport.send({ ...mailOf(p), from: options.from });
      summary.logged += due.length;
      break;
    }
    let progressed = false;
    for (let i = 0; i < due.length; i += BATCH) {
      const part = due.slice(i, i + BATCH);
      // Claim the batch in one statement: another process sending at the same time gets the rest.
      const stamp = now();
      const claimed = await writeTransaction((tx) =>
        tx.all<{ recallId: number; customerId: number }>(sql`update recall_customers set mail_state = 'sending', mail_at = ${stamp}
          where (${sql.join(part.map(key), sql` or `)})
            and ((mail_state is null) or (mail_state = 'sending' and mail_at < ${stamp - SENDING_STALE_MS}))
          returning recall_id as recallId, customer_id as customerId`),
      );
      if (claimed.length === 0) continue;
      progressed = true;
      const mine = new Set(claimed.map((c) => `${c.recallId}/${c.customerId}`));
      const sending = part.filter((p) => mine.has(`${p.recallId}/${p.customerId}`));
      // Sent a few at a time over the pooled connections.
      const outcomes = await Promise.all(
        sending.map((p) =>
          options.transport.send({ ...mailOf(p), from: options.from }).then(
            () => ({ p, error: null as unknown }),
            (error: unknown) => ({ p, error }),
          ),
        ),
      );
      const sent = outcomes.filter((o) => o.error === null).map((o) => o.p);
      await writeTransaction(async (tx) => {
        if (sent.length > 0) await tx.run(sql`update recall_customers set mail_state = 'sent', mail_at = ${now()}, mail_to = case ${sql.join(sent.map((p) => sql`when ${key(p)} then ${p.email}`), sql` `)} end where ${sql.join(sent.map(key), sql` or `)}`);
        for (const { p, error } of outcomes) {
          if (error === null) continue;
          const attempts = p.attempts + 1;
          await tx.run(sql`update recall_customers set mail_state = null, mail_attempts = ${attempts}, mail_next_at = ${nextTry(attempts, now())} where ${key(p)}`);
          summary.failed++;
          if (summary.errors.length < 5) summary.errors.push(`kund ${p.customerId}: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
        }
      });
      summary.sent += sent.length;
    }
    // A round where another process took every mail is done.
    if (!progressed) break;
  }
  return summary;
}

export function recallMailSummaryText(s: RecallMailSummary): string {
  const parts = [
    `Återkallelser: ${s.sent} mejl skickade`,
    s.logged ? `${s.logged} loggade (SMTP_URL saknas, inget skickat)` : null,
    s.failed ? `${s.failed} misslyckades, försöks igen (${s.errors.join("; ")})` : null,
    s.noAddress ? `${s.noAddress} kunder utan e-postadress` : null,
  ];
  return parts.filter(Boolean).join(", ") + ".";
}

/** The recalls' mails as configured (SMTP_URL, MAIL_FROM, PORTAL_URL): the server's job and `portal recall create`. */
export async function runRecallMails(options: { write: (line: string) => void; env?: Record<string, string | undefined> }): Promise<RecallMailSummary> {
  const config = readConfig(options.env ?? process.env, { lenient: true });
  if (config.portalUrl === null) throw refuse.invalid(PORTAL_URL_MISSING);
  const transport = mailTransport(config, options.write);
  try {
    return await sendRecallMails({ transport, portalUrl: config.portalUrl, from: config.mailFrom });
  } finally {
    transport.close();
  }
}

/** Starts sending a new recall's mails now, in the background of the request that made it; the server's job picks up what is left. */
export function kickRecallMails(): void {
  const write = (line: string) => void process.stdout.write(JSON.stringify({ t: new Date(portalNow()).toISOString(), job: "recall.mails", level: "info", line }) + "\n");
  void runRecallMails({ write }).then(
    (s) => write(recallMailSummaryText(s)),
    (e: unknown) => process.stderr.write(JSON.stringify({ t: new Date(portalNow()).toISOString(), job: "recall.mails", level: "error", error: e instanceof Error ? e.message : String(e) }) + "\n"),
  );
}
