// Every deliberate label order is new, a resubmitted form is not.
// A form token answers with exactly the block that form ordered, even after other orders.
import { describe, expect, it } from "vitest";
import { orderBlock, orderEmergencyLabels } from "./labels.server";
import { baseData, newCustomer } from "../../../tests/unit/helpers";
import { beforeAll } from "vitest";

const TODAY = "2026-03-18";

beforeAll(async () => {
  await baseData();
});

describe("label order form tokens", () => {
  it("two tokens: two disjoint series; the first token sent again: the first series, not the latest", async () => {
    const a = await newCustomer();
    const first = await orderEmergencyLabels(a, 3, TODAY, `t1-${a}`);
    const second = await orderEmergencyLabels(a, 2, TODAY, `t2-${a}`);
    expect(second.fromNumber).toBe(first.toNumber + 1);
    const again = await orderEmergencyLabels(a, 3, TODAY, `t1-${a}`);
    expect(again).toEqual(first);
  });

  it("one token sent twice at once (double click) orders one block", async () => {
    const a = await newCustomer();
    const [x, y] = await Promise.all([orderBlock(a, TODAY, `d-${a}`), orderBlock(a, TODAY, `d-${a}`)]);
    expect(x).toEqual(y);
    const other = await orderBlock(a, TODAY, `e-${a}`);
    expect(other.fromNumber).toBe(x.toNumber + 1);
  });
});
