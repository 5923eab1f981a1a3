// Sending mail: nodemailer over SMTP_URL, or — without it — a transport that
// only writes what would be sent, one JSON line per mail, so a demo or a test machine
// never mails anyone.
import type { Transporter } from "nodemailer";
import type { ReminderMail } from "./reminder-mail.server";
import { portalNow } from "../../../db/clock";

export type OutgoingMail = ReminderMail & { from: string };

export type MailTransport = {
  /** False for the logging transport: nothing leaves the machine. */
  delivers: boolean;
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  close(): void;
};

export function smtpTransport(smtpUrl: string): MailTransport {
  // nodemailer loads with the first mail, not with the server.
  let transporter: Promise<Transporter> | undefined;
  // Pooled connections (nodemailer's pool=true, up to 5): a national recall's mails do not
  // open a connection each.
  const pooled = /[?&]pool=/.test(smtpUrl) ? smtpUrl : `${smtpUrl}${smtpUrl.includes("?") ? "&" : "?"}pool=true`;
  const open = () => (transporter ??= import("nodemailer").then((m) => m.default.createTransport(pooled)));
  return {
    delivers: true,
    async send(mail) {
      const info = await (await open()).sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html, headers: mail.headers, date: new Date(portalNow()) });
      return { messageId: info.messageId ?? null };
    },
    close: () => void transporter?.then((t) => t.close()),
  };
}

/** A link's working secret (the unsubscribe token) left out of a log line. */
export function withoutToken(text: string): string {
  return text.replace(/([?&]t=)[^&>\s]+/g, "$1…");
}

export function logTransport(write: (line: string) => void): MailTransport {
  return {
    delivers: false,
    async send(mail) {
      // A log is read by more people than the mailbox: the link is shown without its token.
      write(JSON.stringify({ wouldSend: { from: mail.from, to: mail.to, subject: mail.subject, unsubscribe: withoutToken(mail.headers["List-Unsubscribe"] ?? "") } }));
      return { messageId: null };
    },
    close: () => undefined,
  };
}

/** The transport the configuration asks for. */
export function mailTransport(config: { smtpUrl: string }, write: (line: string) => void): MailTransport {
  return config.smtpUrl ? smtpTransport(config.smtpUrl) : logTransport(write);
}
