// The form sends the bundles its page showed as open.
// A bundle the page showed that is no longer open, or an open bundle the page did not
// show, refuses the whole step (nothing closed) naming the bundles; a decision that
// matches what happened anyway is no conflict; a post without the list is decided as
// before. Against the real database.
import { beforeAll, describe, expect, it } from "vitest";
import { createBundle } from "../../../cli/seed/factories";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { isRefusal } from "../../lib/refusal";
import { closeBundle, CONFIRM_MESSAGES, decideBundles, listOpenBundles } from "./bundles.server";
import { bundleDecisionsSchema } from "./schemas";
import { decisionField, typeField } from "./bundle-words";

const ON = "2025-03-20";

beforeAll(baseData);

async function openNumbers(c: number) {
  return (await listOpenBundles(c)).map((b) => b.number);
}

/** A customer with open bundles 3 and 7 (both Huvudtidningar) and 9 (Bilagor). */
async function customer() {
  const c = await newCustomer();
  await createBundle(db(), { customerId: c, number: 3, type: 0 });
  await createBundle(db(), { customerId: c, number: 7, type: 0 });
  await createBundle(db(), { customerId: c, number: 9, type: 1 });
  return c;
}

async function refusalOf(p: Promise<unknown>) {
  try {
    await p;
  } catch (e) {
    if (isRefusal(e)) return { code: e.code, message: e.message, fields: e.fields };
    throw e;
  }
  throw new Error("not refused");
}

describe("the confirm step with two tabs", () => {
  it("keeping open a bundle another tab closed since is refused, naming it; nothing is closed", async () => {
    const c = await customer();
    // Tab B closes 3 while tab A shows {3, 7, 9}.
    expect(await closeBundle(c, 3, ON)).toBe(true);
    expect(await refusalOf(decideBundles(c, { 3: "open", 7: "closed", 9: "closed" }, ON, { shown: [3, 7, 9] }))).toEqual({
      code: "conflict",
      message: "Buntarna har ändrats sedan sidan visades: bunt 3 är redan stängd. Kontrollera och bekräfta igen.",
      fields: {},
    });
    // Before the fix: 7 and 9 were closed, "keep 3 open" ignored, and ok: true.
    expect(await openNumbers(c)).toEqual([7, 9]);
  });

  it("a bundle opened since the page was shown is refused, naming it; nothing is closed", async () => {
    const c = await customer();
    await createBundle(db(), { customerId: c, number: 12, type: 1 });
    expect(await refusalOf(decideBundles(c, { 3: "closed", 7: "open", 9: "closed" }, ON, { shown: [3, 7, 9] }))).toMatchObject({
      code: "conflict",
      message: "Buntarna har ändrats sedan sidan visades: bunt 12 har öppnats. Kontrollera och bekräfta igen.",
    });
    expect(await openNumbers(c)).toEqual([3, 7, 9, 12]);
  });

  it("several changes are named together", async () => {
    const c = await customer();
    await closeBundle(c, 3, ON);
    await closeBundle(c, 7, ON);
    await createBundle(db(), { customerId: c, number: 12, type: 1 });
    expect(await refusalOf(decideBundles(c, { 3: "open", 7: "open", 9: "closed" }, ON, { shown: [3, 7, 9] }))).toMatchObject({
      message: "Buntarna har ändrats sedan sidan visades: buntarna 3 och 7 är redan stängda, bunt 12 har öppnats. Kontrollera och bekräfta igen.",
    });
    expect(await openNumbers(c)).toEqual([9, 12]);
  });

  it("a decision that matches what happened anyway is no conflict", async () => {
    const c = await customer();
    await closeBundle(c, 3, ON);
    expect(await decideBundles(c, { 3: "closed", 7: "open", 9: "closed" }, ON, { shown: [3, 7, 9] })).toEqual({ closed: [9] });
    expect(await openNumbers(c)).toEqual([7]);
  });

  it("the page as it is decides as before; the ordinary rules still answer", async () => {
    const c = await customer();
    expect(await refusalOf(decideBundles(c, { 3: "open", 7: "open", 9: "closed" }, ON, { shown: [9, 7, 3] }))).toMatchObject({
      code: "invalid",
      fields: { [typeField(0)]: "Du kan bara ha en öppen bunt per returtyp." },
    });
    expect(await refusalOf(decideBundles(c, { 3: "open", 9: "closed" }, ON, { shown: [9, 7, 3] }))).toMatchObject({
      code: "invalid",
      fields: { [decisionField(7)]: CONFIRM_MESSAGES.undecided },
    });
    expect(await decideBundles(c, { 3: "open", 7: "closed", 9: "closed" }, ON, { shown: [3, 7, 9] })).toEqual({ closed: [7, 9] });
    expect(await openNumbers(c)).toEqual([3]);
  });

  it("a page that showed no open bundle, when one opened since, is refused", async () => {
    const c = await newCustomer();
    await createBundle(db(), { customerId: c, number: 5, type: 0 });
    expect(await refusalOf(decideBundles(c, {}, ON, { shown: [] }))).toMatchObject({
      message: "Buntarna har ändrats sedan sidan visades: bunt 5 har öppnats. Kontrollera och bekräfta igen.",
    });
  });

  it("a post without the list (an old page, a hand-made post) is decided as before", async () => {
    const c = await customer();
    await closeBundle(c, 3, ON);
    expect(await decideBundles(c, { 3: "open", 7: "closed", 9: "open" }, ON)).toEqual({ closed: [7] });
    expect(await openNumbers(c)).toEqual([9]);
  });

  it("the schema reads `shown`: numbers, '-' for none, absent for an old page", () => {
    const parse = (form: Record<string, unknown>) => bundleDecisionsSchema.parse(form);
    expect(parse({ shown: "3,7" }).shown).toEqual([3, 7]);
    expect(parse({ shown: "-" }).shown).toEqual([]);
    expect(parse({}).shown).toBeUndefined();
  });
});
