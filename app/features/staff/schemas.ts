// The Links panel's form (back-office spec §5): Titel required ('Required.'), Länk an
// http(s) URL ('Invalid Url Format!!'): the spec's own texts, kept as it words them.
import { missing, rowRef } from "~/lib/form-fields";
import { z } from "~/lib/zod";
import { SHORTCUT_URL } from "./shortcut-rules";

export const SHORTCUT_INTENT = { add: "add-shortcut", remove: "delete-shortcut" } as const;

export const ShortcutAddSchema = z.object({
  intent: z.literal(SHORTCUT_INTENT.add).optional(),
  name: z.string({ error: missing("Required.") }).trim().min(1, "Required.").max(100, "Högst 100 tecken."),
  url: z.string({ error: "Invalid Url Format!!" }).trim().max(2000, "Högst 2000 tecken.").regex(SHORTCUT_URL, "Invalid Url Format!!"),
});

export const ShortcutDeleteSchema = z.object({ intent: z.literal(SHORTCUT_INTENT.remove), id: rowRef() });

export const ShortcutActionSchema = z.discriminatedUnion("intent", [ShortcutAddSchema, ShortcutDeleteSchema]);
