// The auth feature's forms: the two logins, the second-factor code, and the one-field
// customer-number forms of the admin (open a retailer's portal, end its sessions).
// Client-safe: the screens validate with the same schemas in the browser.
import { CUSTOMER_NUMBER } from "~/catalog";
import { EMAIL_MAX_LENGTH, isEmailAddress } from "~/lib/email";
import { z } from "~/lib/zod";

/** An e-mail address typed where a customer number belongs: staff, who log in on their own page. */
export const looksLikeEmail = (name: string) => isEmailAddress(name.trim());

// The retailers' login. An e-mail address in Kundnummer needs no Pinkod: the login sends
// it on to the staff page (decision 027), and the password is never read.
export const LoginSchema = z
  .object({
    kundnummer: z.string({ error: "Kundnummer måste anges" }).trim().min(1, "Kundnummer måste anges").max(254),
    pinkod: z.string().max(200).default(""),
    redirectTo: z.string().max(2000).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.pinkod === "" && !looksLikeEmail(v.kundnummer)) ctx.addIssue({ code: "custom", path: ["pinkod"], message: "Pinkod måste anges" });
  });

// The staff page's login (/personal/logga-in): an e-mail address and a password.
export const StaffLoginSchema = z.object({
  epost: z.string({ error: "E-post måste anges" }).trim().min(1, { error: "E-post måste anges", abort: true }).max(EMAIL_MAX_LENGTH)
    .refine(isEmailAddress, "Skriv en e-postadress, till exempel namn@foretag.se"),
  losenord: z.string({ error: "Lösenord måste anges" }).min(1, "Lösenord måste anges").max(200),
  redirectTo: z.string().max(2000).optional(),
});

// Six digits from the app or a 16-digit recovery code, spaces and dashes allowed. Any
// other shape cannot be right: refused at once, not weighed as a guess.
export const CodeSchema = z.object({
  kod: z
    .string({ error: "Ange koden" })
    .trim()
    .min(1, "Ange koden")
    .max(64, "Fel kod. Försök igen.")
    .refine((v) => /^(\d{6}|\d{16})$/.test(v.normalize("NFKC").replace(/[\s-]/g, "")), "Fel kod. Försök igen."),
});

const CUSTOMER_NUMBER_TEXT = "Ange ett kundnummer (1–5 siffror).";

/** 'Öppna kundens portal' and 'Logga ut kund': the customer's number as typed. */
export const CustomerNumberSchema = z.object({
  kundnummer: z.string({ error: CUSTOMER_NUMBER_TEXT }).trim().regex(CUSTOMER_NUMBER, CUSTOMER_NUMBER_TEXT),
});

/** The logout form: only the form token, checked by the guard. */
export const LogoutSchema = z.object({});
