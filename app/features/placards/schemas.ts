// The Löpsedlar form (spec 5): `titel` lists the titles on the page, `antal-<titleId>`
// is each title's desired amount. Every amount must be given: saving happens only if
// all are set.
import { z } from "~/lib/zod";
import { MAX_PLACARDS, PLACARD_MESSAGES, amountField, confirmedField, shownField } from "./words";

export const placardsSchema = z
  .object({ titel: z.preprocess((v) => (v === undefined ? [] : ([] as unknown[]).concat(v)), z.array(z.string())) })
  .catchall(z.unknown())
  .superRefine((form, ctx) => {
    for (const id of form.titel) {
      const raw = form[amountField(id)];
      const text = typeof raw === "string" ? raw.trim() : "";
      if (text === "") ctx.addIssue({ code: "custom", path: [amountField(id)], message: PLACARD_MESSAGES.required });
      else if (!/^\d{1,3}$/.test(text) || Number(text) > MAX_PLACARDS) {
        ctx.addIssue({ code: "custom", path: [amountField(id)], message: PLACARD_MESSAGES.unreasonable });
      }
    }
  });
// (No transform on the whole object: the browser half, useContractForm, reads the
// schema's constraints, which conform cannot do through a top-level transform.)

/** The amounts wanted, from a form the schema accepted. */
export function placardsWanted(form: z.output<typeof placardsSchema>) {
  // A title id that is not a number names no title: savePlacards refuses the save as a whole.
  return {
    wanted: form.titel.map((id) => {
      const shown = form[shownField(id)];
      const confirmed = form[confirmedField(id)];
      return {
        titleId: /^\d+$/.test(id) ? Number(id) : NaN,
        newAmount: Number(String(form[amountField(id)]).trim()),
        // Absent (a form from before the check existed): no check.
        ...(typeof shown === "string" ? { shown: shown.trim() } : {}),
        ...(typeof confirmed === "string" ? { confirmed: confirmed.trim() } : {}),
      };
    }),
  };
}
