// The Påminnelser form: on or off, and the address. An address is needed to turn them on;
// one typed with them off is kept for later. The server checks it; the page only helps.
import { isEmailAddress } from "~/lib/email";
import { z } from "~/lib/zod";
import { REMINDER_FIELDS as F, REMINDER_TEXTS as T } from "./words";


export const reminderSettingsSchema = z
  .object({
    [F.enabled]: z.string().optional(),
    [F.email]: z.string().max(1000).optional(),
  })
  .transform((form) => ({ enabled: (form[F.enabled] ?? "") !== "", email: (form[F.email] ?? "").trim() }))
  .superRefine((v, ctx) => {
    if (v.email === "") {
      if (v.enabled) ctx.addIssue({ code: "custom", path: [F.email], message: T.emailNeeded });
    } else if (!isEmailAddress(v.email)) {
      ctx.addIssue({ code: "custom", path: [F.email], message: T.badEmail });
    }
  });

export type ReminderSettingsInput = z.output<typeof reminderSettingsSchema>;

/**
 * Avsluta påminnelser's POST: the button's form carries the link's token (`t`); a mail
 * program's one-click POST (RFC 8058) sends only "List-Unsubscribe=One-Click" to the link,
 * whose address holds the token. Tokens are short; anything longer is no token.
 */
export const UnsubscribeSchema = z.object({
  t: z.string().max(100).default(""),
  "List-Unsubscribe": z.string().max(20).optional(),
});
