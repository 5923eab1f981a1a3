// An SMTP server in the test's own process (smtp-server) that takes every mail and notes
// its recipients: the reminder tests' real mail server.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export type SmtpCatcher = { port: number; url: string; close: () => Promise<void> };

/** Listens on `port` (0: any free one) and pushes each mail's recipients onto `recipients`. */
export async function startSmtpCatcher(recipients: string[], port = 0): Promise<SmtpCatcher> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      stream.resume();
      stream.on("end", () => {
        recipients.push(...session.envelope.rcptTo.map((r) => r.address));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return { port: bound, url: `smtp://127.0.0.1:${bound}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
