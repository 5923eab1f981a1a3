// The returns form's schema (spec 4, 5). Its rows are dynamic: `line` names each row's
// key (`d<delivery>`, `d<delivery>s<n>` for a split, `r<return>` for a stored return) and
// `<key>.delivery|bundle|amount|dflt` its fields, so the schema reads the rows through
// linesFromPayload. The rules of a row (bundle and amount) are the save's own (checkLine),
// since they need the stored bundles and deliveries; the schema gives the form its shape.
import { z } from "~/lib/zod";
import { linesFromPayload } from "./return-lines";


/** The first of a repeated field, as FormData.get would read it. */
const first = <S extends z.ZodTypeAny>(schema: S) => z.preprocess((v) => (Array.isArray(v) ? v[0] : v), schema);

export const returnsFormSchema = z
  .object({
    // `save`, or a button without JavaScript: `split:<delivery>`, `undo:<key>`, `soldout:<key>` (applyIntent), `bundle:<type>`.
    intent: first(z.string().optional()),
    // The form's one-time token: a resubmission is recognised and not applied twice.
    token: first(z.string().optional()),
    // "Bunt för huvudtidningar/bilagor" (state 1): the bundle `bundle:<type>` gives the untouched rows.
    typeBundle0: first(z.string().optional()),
    typeBundle1: first(z.string().optional()),
  })
  .catchall(z.unknown())
  .transform((payload) => ({
    intent: payload.intent ?? "save",
    token: (payload.token ?? "").slice(0, 64),
    typeBundles: { 0: (payload.typeBundle0 ?? "").trim().slice(0, 20), 1: (payload.typeBundle1 ?? "").trim().slice(0, 20) } as Record<0 | 1, string>,
    lines: linesFromPayload(payload),
  }));

export type ReturnsForm = z.output<typeof returnsFormSchema>;
