import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BUNDLE_NUMBER } from "~/catalog";
import { checkedPeriod } from "./period";
import { param, readSearch } from "./search-params";

const SHAPE = {
  sok: param.text(10),
  fel: param.typed(5),
  id: param.id(),
  kund: param.ref(BUNDLE_NUMBER),
  visa: param.ref(),
  sida: param.page(),
  status: param.oneOf(["aktiva", "alla"], "aktiva"),
  titel: param.maybeOneOf(["AB", "EX"]),
  datum: param.date(),
  vecka: param.matching(/^\d{4}-v\d{2}$/),
  bunt: param.shortNumber(BUNDLE_NUMBER),
  granska: param.flag(),
  utb: param.list(/^\d{1,9}$/),
  pages: param.pagesByPrefix("sida-"),
  sort: param.sort(["namn", "antal"], { column: "namn", descending: false }),
  andra: param.sort(["summa"], { column: "summa", descending: true }, { column: "tsortera", order: "tordning" }),
  period: param.period(),
};

const read = (query: string) => readSearch(new URLSearchParams(query), SHAPE);

describe("search parameters read by a zod shape", () => {
  it("without parameters: every default", () => {
    expect(read("")).toEqual({
      sok: "",
      fel: null,
      id: null,
      kund: undefined,
      visa: undefined,
      sida: 1,
      status: "aktiva",
      titel: null,
      datum: null,
      vecka: null,
      bunt: null,
      granska: false,
      utb: [],
      pages: new Map(),
      sort: { column: "namn", descending: false },
      andra: { column: "summa", descending: true },
      period: null,
    });
  });

  it("reads what a screen's links and forms send", () => {
    const q = read(
      "sok=%20%C5%9Eahin%20Livs%20&fel=12345678&id=42&kund=007&visa=9&sida=3&status=alla&titel=EX&datum=2026-03-29&vecka=2026-v13&bunt=12&granska&utb=2&utb=x&utb=3&sida-7=2&sida-x=5&sortera=antal&ordning=fallande&tsortera=summa&tordning=stigande&fran=2026-10-25&till=",
    );
    expect(q).toEqual({
      sok: "Şahin Livs",
      fel: "12345",
      id: 42,
      kund: 7,
      visa: 9,
      sida: 3,
      status: "alla",
      titel: "EX",
      datum: "2026-03-29",
      vecka: "2026-v13",
      bunt: 12,
      granska: true,
      utb: ["2", "3"],
      pages: new Map([[7, 2]]),
      sort: { column: "antal", descending: true },
      andra: { column: "summa", descending: false },
      period: { from: "2026-10-25", to: "" },
    });
    // One date is the start and the end (the range picker's rule).
    expect(checkedPeriod(q.period, { from: "2026-01-01", to: "2026-01-02" }).period).toEqual({ from: "2026-10-25", to: "2026-10-25" });
  });

  it("a forged or stale value is the screen's default, and a forged row link says so (null)", () => {
    const q = read("id=0x1F&kund=123456&visa=-1&sida=1e309&status=x&titel=ab&datum=2026-02-30&vecka=v13&bunt=1.5&sortera=__proto__&ordning=fallande");
    expect(q).toMatchObject({ id: null, kund: null, visa: null, sida: 1, status: "aktiva", titel: null, datum: null, vecka: null, bunt: null });
    expect(q.sort).toEqual({ column: "namn", descending: false });
    expect(read("sida=99999999999").sida).toBe(1_000_000);
    expect(read("kund=%20%20").kund).toBeUndefined();
    expect(checkedPeriod(read("till=2026-03-01").period, { from: "2026-01-01", to: "2026-01-02" }).errors).toEqual({ from: "Måste ha ett värde" });
  });

  it("never throws, whatever the URL holds", () => {
    const key = fc.constantFrom(...Object.keys(SHAPE), "sortera", "ordning", "tsortera", "tordning", "fran", "till", "sida-1", "sida-", "x");
    fc.assert(
      fc.property(fc.array(fc.tuple(key, fc.string({ unit: "binary", maxLength: 40 })), { maxLength: 30 }), (pairs) => {
        const params = new URLSearchParams();
        for (const [k, v] of pairs) params.append(k, v);
        const q = readSearch(params, SHAPE);
        expect(q.sida >= 1 && q.sida <= 1_000_000).toBe(true);
        expect(q.sok.length).toBeLessThanOrEqual(10);
      }),
      { numRuns: 500 },
    );
  });
});
