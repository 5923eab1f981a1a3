// Leveransändring's forms (decision 037): one schema per form for the action (and the
// staff pages' browser check). The retailer's page ships no form library: its action alone
// reads these.
import { rowId } from "~/lib/form-fields";
import { z } from "~/lib/zod";
import { ANSWER, SEND_ONE_OFF, SEND_WEEKDAYS, SUPPLY_MAX_COPIES, SUPPLY_TEXTS, WITHDRAW } from "./supply-words";

const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const copies = z
  .string({ error: SUPPLY_TEXTS.copiesInvalid })
  .trim()
  .regex(/^\d{1,4}$/, SUPPLY_TEXTS.copiesInvalid)
  .transform(Number)
  .refine((n) => n <= SUPPLY_MAX_COPIES, SUPPLY_TEXTS.copiesInvalid);
/** A blank field is no change (the form parser reads a blank field as absent). */
const maybeCopies = copies.optional();
const paper = z
  .string({ error: SUPPLY_TEXTS.paperMissing })
  .regex(/^\d{1,3}:\d{1,4}$/, SUPPLY_TEXTS.paperMissing)
  .transform((v) => ({ titleId: Number(v.split(":")[0]), editionId: Number(v.split(":")[1]) }));
const date = z.string({ error: SUPPLY_TEXTS.dateInvalid }).trim().regex(/^\d{4}-\d{2}-\d{2}$/, SUPPLY_TEXTS.dateInvalid);
const reason = z.string({ error: SUPPLY_TEXTS.reasonMissing }).trim().min(1, SUPPLY_TEXTS.reasonMissing).max(500, "Högst 500 tecken.");


/** One Skicka of a paper: a number for any of the seven weekdays (dag1 Monday … dag7 Sunday). */
export const WeekdayChangesSchema = z.object({
  intent: z.literal(SEND_WEEKDAYS),
  tidning: paper,
  dag1: maybeCopies,
  dag2: maybeCopies,
  dag3: maybeCopies,
  dag4: maybeCopies,
  dag5: maybeCopies,
  dag6: maybeCopies,
  dag7: maybeCopies,
});

export const OneOffChangeSchema = z.object({ intent: z.literal(SEND_ONE_OFF), tidning: paper, datum: date, antal: copies });
export const WithdrawChangeSchema = z.object({ intent: z.literal(WITHDRAW), andring: rowId("Ändringen finns inte.") });
export const AnswerProposalSchema = z.object({ intent: z.literal(ANSWER), andring: rowId("Ändringen finns inte."), svar: z.enum(["ja", "nej"]) });

export const RetailerSupplySchema = z.discriminatedUnion("intent", [WeekdayChangesSchema, OneOffChangeSchema, WithdrawChangeSchema, AnswerProposalSchema]);

// ---- Staff ----

export const APPROVE_CHOSEN = "godkann-markerade";
export const REJECT_CHOSEN = "avsla-markerade";
export const PROPOSE_CHOSEN = "foresla-markerade";
export const PROPOSE_OWN = "foresla";
export const EXPORT = "exportera";

const chosen = z.preprocess(list, z.array(rowId(SUPPLY_TEXTS.nothingChosen)).min(1, SUPPLY_TEXTS.nothingChosen));
export const ApproveChosenSchema = z.object({ intent: z.literal(APPROVE_CHOSEN), andring: chosen, anledning: z.string().optional() });
export const RejectChosenSchema = z.object({ intent: z.literal(REJECT_CHOSEN), andring: chosen, anledning: reason });

/** Suggestions chosen to propose: "customer:title:edition:weekday:copies" each. */
export const ProposeChosenSchema = z.object({
  intent: z.literal(PROPOSE_CHOSEN),
  forslag: z.preprocess(list, z.array(z.string().regex(/^\d{1,5}:\d{1,3}:\d{1,4}:[1-7]:\d{1,4}$/, SUPPLY_TEXTS.nothingChosen)).min(1, SUPPLY_TEXTS.nothingChosen)),
});

export const ProposeOwnSchema = z
  .object({
    intent: z.literal(PROPOSE_OWN),
    kund: z.string({ error: SUPPLY_TEXTS.customerMissing }).trim().regex(/^\d{1,5}$/, SUPPLY_TEXTS.customerMissing).transform(Number),
    tidning: paper,
    veckodag: z.string().regex(/^[1-7]$/, SUPPLY_TEXTS.weekdayMissing).transform(Number).optional(),
    datum: date.optional(),
    antal: copies,
    anledning: reason,
  })
  .superRefine((v, ctx) => {
    if ((v.veckodag === undefined) === (v.datum === undefined)) ctx.addIssue({ code: "custom", path: ["veckodag"], message: SUPPLY_TEXTS.weekdayMissing });
  });

export const ExportSchema = z.object({ intent: z.literal(EXPORT) });

export const StaffSupplySchema = z.discriminatedUnion("intent", [ApproveChosenSchema, RejectChosenSchema, ProposeChosenSchema, ProposeOwnSchema, ExportSchema]);

/** One change's decision (its page). */
export const SupplyDecisionSchema = z
  .object({
    andring: rowId("Ändringen finns inte."),
    beslut: z.enum(["godkann", "justera", "avsla"], { error: "Välj ett beslut." }),
    antal: copies.optional(),
    anledning: z.string().trim().max(500, "Högst 500 tecken.").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.beslut === "justera" && v.antal === undefined) ctx.addIssue({ code: "custom", path: ["antal"], message: SUPPLY_TEXTS.copiesInvalid });
    if (v.beslut !== "godkann" && !v.anledning) ctx.addIssue({ code: "custom", path: ["anledning"], message: SUPPLY_TEXTS.reasonMissing });
  });
