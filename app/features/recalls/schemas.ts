// The recall forms (decision 036): one schema per form for the browser and the action.
import { rowId } from "~/lib/form-fields";
import { z } from "~/lib/zod";
import { RECALL_ACTIONS, RECALL_TEXTS } from "./recall-words";

const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);

/** A new recall: editions as "title:edition" (one title), period, reason, action, scope, deadline. */
export const NewRecallSchema = z
  .object({
    intent: z.literal("skapa"),
    utgavor: z.preprocess(list, z.array(z.string().regex(/^\d{1,3}:\d{1,4}$/, RECALL_TEXTS.editionsMissing)).min(1, RECALL_TEXTS.editionsMissing)),
    fran: z.string({ error: "Ange ett datum." }).regex(/^\d{4}-\d{2}-\d{2}$/, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
    till: z.string({ error: "Ange ett datum." }).regex(/^\d{4}-\d{2}-\d{2}$/, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
    orsak: z.string({ error: RECALL_TEXTS.reasonMissing }).trim().min(1, RECALL_TEXTS.reasonMissing).max(1000, "Högst 1000 tecken."),
    atgard: z.enum(RECALL_ACTIONS, { error: RECALL_TEXTS.actionMissing }),
    omfattning: z.enum(["alla", "valda"], { error: RECALL_TEXTS.distributorsMissing }),
    distributorer: z.preprocess(list, z.array(z.string().regex(/^\d{1,6}$/, "Distributören finns inte.").transform(Number))),
    senastDatum: z.string({ error: "Ange ett datum." }).regex(/^\d{4}-\d{2}-\d{2}$/, "Ogiltigt datum (ÅÅÅÅ-MM-DD)."),
    senastTid: z.string({ error: "Ange en tid, TT:MM." }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, "Ange en tid, TT:MM."),
  })
  .superRefine((v, ctx) => {
    const titles = new Set(v.utgavor.map((u) => u.split(":")[0]));
    if (titles.size > 1) ctx.addIssue({ code: "custom", path: ["utgavor"], message: RECALL_TEXTS.editionsOfTitle });
    if (v.omfattning === "valda" && v.distributorer.length === 0) ctx.addIssue({ code: "custom", path: ["distributorer"], message: RECALL_TEXTS.distributorsMissing });
  });

/** Avsluta återkallelse (the recall's page). */
export const EndRecallSchema = z.object({ intent: z.literal("avsluta"), aterkallelse: rowId("Återkallelsen finns inte.") });

export const StaffRecallSchema = z.discriminatedUnion("intent", [NewRecallSchema, EndRecallSchema]);

/** A retailer's acknowledgement: the copies taken off the shelf, or "Jag har inga kvar" (0). */
export const AcknowledgeRecallSchema = z
  .object({
    aterkallelse: rowId("Återkallelsen finns inte."),
    antal: z.string().trim().regex(/^\d{1,5}$/, RECALL_TEXTS.removedInvalid).transform(Number).optional(),
    ingaKvar: z.literal("on").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.antal === undefined && !v.ingaKvar) ctx.addIssue({ code: "custom", path: ["antal"], message: RECALL_TEXTS.removedInvalid });
    if (v.ingaKvar && v.antal !== undefined && v.antal > 0) ctx.addIssue({ code: "custom", path: ["antal"], message: "Du kryssade i Jag har inga kvar men angav ett antal. Ta bort antalet eller krysset." });
  });
