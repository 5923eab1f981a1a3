// The reminder mail: a plain-text part and the same as simple HTML, in
// Swedish, naming each paper and its last return day, with a link to the returns form
// and a one-click unsubscribe link (also in the List-Unsubscribe headers, RFC 8058).
import { paperName } from "~/catalog";
import type { DuePaper } from "~/features/returns/index.server";
import { dueText } from "~/features/returns/texts";
import { escapeHtml } from "~/lib/html.server";

export type ReminderMail = {
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
};


export function buildReminderMail(input: {
  to: string;
  customerId: number;
  name: string;
  on: string;
  papers: DuePaper[];
  portalUrl: string;
  unsubscribeUrl: string;
}): ReminderMail {
  const { papers, on } = input;
  const today = papers.filter((p) => p.deadline === on).length;
  const tomorrow = papers.length - today;
  const counts = [today ? `${dueText(today, "i dag")}.` : null, tomorrow ? `${dueText(tomorrow, "i morgon")}.` : null].filter((s): s is string => s !== null);
  const subject = today
    ? `Påminnelse: ${dueText(today, "i dag")}`
    : `Påminnelse: ${dueText(tomorrow, "i morgon")}`;
  const formUrl = `${input.portalUrl}/rapportering/1`;
  const lines = papers.map((p) => `${paperName(p.title, p.edition)}, utgivningsdag ${p.deliveryDate}: sista returdag ${p.deadline}`);
  const text = [
    `Hej ${input.name}!`,
    "",
    ...counts,
    "",
    ...lines.map((l) => `- ${l}`),
    "",
    "Rapportera returerna i Returportalen före sista returdag, så att de krediteras:",
    formUrl,
    "",
    "--",
    `Du får det här mejlet eftersom påminnelser är påslagna för kund ${input.customerId} i Returportalen.`,
    "Avsluta påminnelserna (ingen inloggning behövs):",
    input.unsubscribeUrl,
    "",
  ].join("\n");
  const html = `<!doctype html>
<html lang="sv"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family: sans-serif; line-height: 1.5">
<p>Hej ${escapeHtml(input.name)}!</p>
${counts.map((c) => `<p>${escapeHtml(c)}</p>`).join("\n")}
<ul>
${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join("\n")}
</ul>
<p>Rapportera returerna i Returportalen före sista returdag, så att de krediteras:<br><a href="${escapeHtml(formUrl)}">Rapportera returer</a></p>
<hr>
<p style="font-size: 0.9em">Du får det här mejlet eftersom påminnelser är påslagna för kund ${input.customerId} i Returportalen.
<a href="${escapeHtml(input.unsubscribeUrl)}">Avsluta påminnelserna</a> (ingen inloggning behövs).</p>
</body></html>
`;
  return {
    to: input.to,
    subject,
    text,
    html,
    headers: { "List-Unsubscribe": `<${input.unsubscribeUrl}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  };
}
