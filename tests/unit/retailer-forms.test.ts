// The retailer's form schemas (the form contract): each form parses with
// conform + zod as the action does, keeps the spec's Swedish texts, and the returns
// form's dynamic rows read back as the lines the save takes.
import { getZodConstraint, parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { bundleDecisionsSchema, closeBundleSchema } from "../../app/features/bundles/schemas";
import { CLOSE_REFUSED } from "../../app/features/bundles/bundle-words";
import { receivedSchema } from "../../app/features/deliveries/schemas";
import { holidayAnswerSchema } from "../../app/features/holidays/answer-schemas";
import { HOLIDAY_CLOSED_MESSAGE } from "../../app/features/holidays/answer-words";
import { EMERGENCY_COUNT_MESSAGE, emergencyLabelsSchema, orderBlockSchema } from "../../app/features/labels/schemas";
import { placardsSchema, placardsWanted } from "../../app/features/placards/schemas";
import { PLACARD_MESSAGES } from "../../app/features/placards/words";
import { returnsFormSchema } from "../../app/features/returns/schemas";

function form(entries: [string, string][]): FormData {
  const f = new FormData();
  for (const [k, v] of entries) f.append(k, v);
  return f;
}

/** The action's parse: status, the typed value (success) or the errors by field. */
function parse(schema: Parameters<typeof parseWithZod>[1]["schema"], entries: [string, string][]) {
  const s = parseWithZod(form(entries), { schema });
  return s.status === "success"
    ? { status: s.status, value: s.value as Record<string, unknown>, error: undefined }
    : { status: s.status, value: undefined, error: s.error };
}

describe("retailer form schemas", () => {
  it("returns: the rows come back as lines; the first intent and token count; malformed rows are dropped", () => {
    const s = parse(returnsFormSchema, [
      ["intent", "split:5"],
      ["intent", "save"],
      ["token", "t".repeat(100)],
      ["line", "d5"],
      ["d5.delivery", "5"],
      ["d5.bundle", "101"],
      ["d5.amount", ""],
      ["d5.dflt", "101"],
      ["line", "x; drop"],
      ["line", "r7"],
      ["r7.delivery", "6"],
      ["r7.bundle", "12"],
      ["r7.amount", "4"],
      ["line", "d8"],
      ["d8.delivery", "abc"],
      ["x.amount", "1"],
    ]);
    expect(s.status).toBe("success");
    expect(s.value?.intent).toBe("split:5");
    expect(s.value?.token).toHaveLength(64);
    expect(s.value?.lines).toEqual([
      { key: "d5", deliveryId: 5, returnId: undefined, bundle: "101", amount: "", dflt: "101", split: false },
      { key: "r7", deliveryId: 6, returnId: 7, bundle: "12", amount: "4", dflt: "", split: false },
    ]);
    const empty = parse(returnsFormSchema, []);
    expect(empty.status === "success" && empty.value).toEqual({ intent: "save", token: "", typeBundles: { 0: "", 1: "" }, lines: [] });
    // "Bunt för huvudtidningar – Byt" without JavaScript: the typed bundle, trimmed.
    const byt = parse(returnsFormSchema, [["intent", "bundle:0"], ["typeBundle0", " 107 "]]);
    expect(byt.status === "success" && byt.value.typeBundles).toEqual({ 0: "107", 1: "" });
  });

  it("löpsedlar: every title needs an amount, in the spec's words", () => {
    const s = parse(placardsSchema, [["titel", "1"], ["antal-1", "7"], ["titel", "2"], ["antal-2", ""], ["titel", "3"], ["antal-3", "1000"]]);
    expect(s.status).toBe("error");
    expect(s.error).toEqual({ "antal-2": [PLACARD_MESSAGES.required], "antal-3": [PLACARD_MESSAGES.unreasonable] });
    const ok = parse(placardsSchema, [["titel", "1"], ["antal-1", " 7 "]]);
    expect(placardsWanted(ok.value as never)).toEqual({ wanted: [{ titleId: 1, newAmount: 7 }] });
    // The browser half reads the same schema's constraints.
    expect(() => getZodConstraint(placardsSchema)).not.toThrow();
    expect(() => getZodConstraint(emergencyLabelsSchema)).not.toThrow();
  });

  it("the one-field forms answer in Swedish: nödetiketter, order, helgspärr, close bundle", () => {
    expect(parse(emergencyLabelsSchema, [["antal", "0"]]).error).toEqual({ antal: [EMERGENCY_COUNT_MESSAGE] });
    expect(parse(emergencyLabelsSchema, []).error).toEqual({ antal: [EMERGENCY_COUNT_MESSAGE] });
    expect(parse(emergencyLabelsSchema, [["antal", "20"], ["token", "x"]]).status).toBe("success");
    expect(parse(orderBlockSchema, [["intent", "okand"]]).error).toEqual({ intent: ["Ogiltig förfrågan."] });
    expect(parse(holidayAnswerSchema, [["intent", "stangt"], ["holidayId", "1e3"]]).error).toEqual({ holidayId: [HOLIDAY_CLOSED_MESSAGE] });
    expect(parse(closeBundleSchema, [["intent", "close"], ["bunt", "123456"]]).error).toEqual({ bunt: [CLOSE_REFUSED] });
    const received = parse(receivedSchema, [["intent", "spara-mottaget"], ["deliveryId", "12"], ["mottagit", "-1"]]);
    expect(received.status === "success" && received.value).toEqual({ intent: "spara-mottaget", deliveryId: 12, mottagit: "-1", rad: {}, fore: {}, ja: {} });
  });

  it("the confirm step keeps only open/closed decisions of bundle numbers", () => {
    const s = parse(bundleDecisionsSchema, [["b.101", "open"], ["b.102", "closed"], ["b.103", "maybe"], ["b.x", "open"], ["js", "1"]]);
    expect(s.status === "success" && s.value).toEqual({ b: { 101: "open", 102: "closed" }, js: true });
  });
});

describe("optional fields", () => {
  it("a form without JavaScript's js field, or without redirectTo, still parses", async () => {
    const { closeAlertsSchema } = await import("../../app/features/alerts/schemas");
    expect(parse(closeBundleSchema, [["intent", "close"], ["bunt", "7"]]).status).toBe("success");
    expect(parse(bundleDecisionsSchema, []).status).toBe("success");
    const alerts = parse(closeAlertsSchema, []);
    expect(alerts.status === "success" && alerts.value).toEqual({ redirectTo: undefined });
  });
});
