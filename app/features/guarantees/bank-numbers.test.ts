// Payout details are checked by the banks' rules before they are stored, and a payout file
// never carries a number those rules refuse — one stored before the checks included.
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { staffActor } from "~/features/audit/audit.server";
import { isRefusal } from "~/lib/refusal";
import { luhnCheckDigit, luhnValid } from "~/lib/luhn";
import { schema } from "../../../db/client";
import { baseData, db, newCustomer } from "../../../tests/unit/helpers";
import { bankAccountOf, bankgiroOf, orgNumberOf } from "~/lib/bank-numbers.server";
import { BANK_NUMBER_PROBLEMS, checkBankDetail } from "./bank-numbers.server";
import { missingDetails, refundProblems, updateBankDetail } from "./guarantees.server";

beforeAll(baseData);

describe("the modulus-10 check digit", () => {
  it("is Bankgirot's: 5050-1055 and 556016-0680 pass, one changed digit fails", () => {
    expect(luhnValid("50501055")).toBe(true);
    expect(luhnValid("5560160680")).toBe(true);
    expect(luhnValid("50501056")).toBe(false);
    expect(luhnCheckDigit("5050105")).toBe(5);
    expect(luhnValid(`12345${luhnCheckDigit("12345")}`)).toBe(true);
  });
});

describe("bank numbers", () => {
  it("takes bankgiro numbers of 7–8 digits with the right check digit, written one way", () => {
    expect(bankgiroOf("5050-1055")).toBe("5050-1055");
    expect(bankgiroOf(" 5050 1055 ")).toBe("5050-1055");
    expect(bankgiroOf("123-4566")).toBe("123-4566");
    expect(bankgiroOf("1234566")).toBe("123-4566");
    for (const bad of ["12345", "123-4567", "5050-1056", "505010555", "abc-defg", "", "0000-0000", "000-0000"]) expect(bankgiroOf(bad), bad).toBeNull();
  });

  it("takes bank accounts by the banks' clearing and account rules", () => {
    expect(bankAccountOf("6000 123456789")).toBe("6000, 123 456 789");
    expect(bankAccountOf("3300-7810251111")).toBe("3300, 781025-1111");
    for (const bad of ["12345", "9020 1234567", "1200 0000000", "6000 12345678x"]) expect(bankAccountOf(bad), bad).toBeNull();
    // Type-2 accounts have their check digits checked too: Nordea personkonto, Handelsbanken, Swedbank.
    expect(bankAccountOf("8327-9, 123 456 789-7")).toBe("8327-9, 123 456 789-7");
    for (const bad of ["3300 7810251112", "6000 123456788", "8327-9 1234567890"]) expect(bankAccountOf(bad), bad).toBeNull();
  });

  it("takes organisationsnummer (and a sole trader's personnummer) with their check digit", () => {
    expect(orgNumberOf("5560160680")).toBe("556016-0680");
    expect(orgNumberOf("556016-0680")).toBe("556016-0680");
    for (const bad of ["556016-0681", "12345", "551122-3344"]) expect(orgNumberOf(bad), bad).toBeNull();
  });

  it("clears on empty, and says why in Swedish otherwise", () => {
    expect(checkBankDetail("bankgiro", "  ")).toEqual({ value: "" });
    expect(checkBankDetail("bankgiro", "12345")).toEqual({ problem: BANK_NUMBER_PROBLEMS.bankgiro });
  });
});

describe("saving and paying out", () => {
  const actor = staffActor(1);

  it("refuses '12345' as a bankgiro beside the field, stores a right one in one written form, and audits it", async () => {
    const c = await newCustomer({ name: "Şahin Livs" });
    const refused = await updateBankDetail(c, "bankgiro", "12345", actor).catch((e: unknown) => e);
    expect(isRefusal(refused, "invalid") && refused.fields).toEqual({ value: BANK_NUMBER_PROBLEMS.bankgiro });
    const [before] = await db().select().from(schema.customers).where(eq(schema.customers.id, c));
    expect(before.bankgiro).toBe("");
    await updateBankDetail(c, "bankgiro", "5050 1055", actor);
    await updateBankDetail(c, "orgNumber", "5560160680", actor);
    await updateBankDetail(c, "bankAccount", "6000 123456789", actor);
    const [after] = await db().select().from(schema.customers).where(eq(schema.customers.id, c));
    expect([after.bankgiro, after.orgNumber, after.bankAccount]).toEqual(["5050-1055", "556016-0680", "6000, 123 456 789"]);
  });

  it("lists a number stored before the checks as a problem, so no payout file carries it", () => {
    const r = { customerId: 4711, name: "Kiosken Gamla Stan", orgNumber: "551122-3344", bankgiro: "12345", bankAccount: "" };
    expect(refundProblems(r)).toEqual({ orgNumber: BANK_NUMBER_PROBLEMS.orgNumber, bankgiro: BANK_NUMBER_PROBLEMS.bankgiro });
    expect(missingDetails([{ ...r, address: "", coAddress: "", zip: "", city: "", email: "", refundDate: "2026-12-07", amounts: [] } as never])).toEqual([
      `4711 Kiosken Gamla Stan: Orgnummer: ${BANK_NUMBER_PROBLEMS.orgNumber} Bankgiro: ${BANK_NUMBER_PROBLEMS.bankgiro}`,
    ]);
    expect(refundProblems({ orgNumber: "556016-0680", bankgiro: "5050-1055", bankAccount: "" })).toEqual({});
  });
});
