// The admins' staff screen forms.
import { missing } from "~/lib/form-fields";
import { ROLES } from "~/catalog";
import { isEmailAddress } from "~/lib/email";
import { z } from "~/lib/zod";

const ROLE = z.enum(ROLES, { error: (issue) => (typeof issue.input === "string" && issue.input !== "" ? `Okänd roll: ${issue.input.slice(0, 40)}.` : "Välj en roll.") });
const roles = z.preprocess((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]), z.array(ROLE).min(1, "Välj minst en roll."));
const distributorId = z
  .string()
  .regex(/^\d{1,9}$/, "Välj distributör.")
  .transform(Number)
  .optional()
  .transform((v) => v ?? null);
const staffId = z.string({ error: missing("Användaren finns inte.") }).regex(/^\d{1,9}$/, "Användaren finns inte.").transform(Number);

export const StaffAddSchema = z.object({
  intent: z.literal("lagg-till"),
  email: z
    .string({ error: missing("Obligatorisk.") })
    .trim()
    .toLowerCase()
    .max(200, "Högst 200 tecken.")
    .refine(isEmailAddress, "Ange en e-postadress (namn@exempel.se)."),
  name: z.string({ error: missing("Obligatorisk.") }).trim().min(1, "Obligatorisk.").max(200, "Högst 200 tecken."),
  roles,
  distributorId,
});

export const StaffRolesSchema = z.object({ intent: z.literal("roller"), staffId, roles, distributorId });
export const StaffRowSchema = z.object({ intent: z.enum(["stang-av", "aktivera", "nytt-losenord"]), staffId });
/** Byt lösenord: the current password and the new one twice. */
export const OwnPasswordSchema = z
  .object({
    nuvarande: z.string({ error: missing("Ange ditt nuvarande lösenord.") }).max(200, "Högst 200 tecken."),
    nytt: z.string({ error: missing("Ange ett nytt lösenord.") }).max(200, "Högst 200 tecken."),
    igen: z.string({ error: missing("Skriv det nya lösenordet en gång till.") }).max(200, "Högst 200 tecken."),
  })
  .refine((v) => v.nytt === v.igen, { path: ["igen"], message: "Lösenorden är inte likadana." });

export const StaffActionSchema = z.discriminatedUnion("intent", [StaffAddSchema, StaffRolesSchema, StaffRowSchema]);
