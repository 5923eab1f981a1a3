// B16's mail sender: one process sending the recalls' mails as an app server's job does
// (DATABASE_URL, SMTP_URL from the environment). Two of these run at once.
import { runRecallMails, recallMailSummaryText } from "../app/features/recalls/index.server";

const s = await runRecallMails({ write: () => undefined });
process.stdout.write(JSON.stringify({ ...s, text: recallMailSummaryText(s) }) + "\n");
