// The questions Sista returdag asks before a change that moves or locks retailers' papers
// (decision 029): what it will change, in numbers, in Swedish. Null when it changes nothing
// for anyone, and the change is saved at once.
import { countOf, formatCount } from "~/lib/count";
import type { Question } from "~/lib/question";
import type { LatePolicy, PolicyReach, WindowsEffect } from "./deadlines.server";

const papers = (n: number) => countOf(n, "tidning", "tidningar");
const customers = (n: number) => countOf(n, "kund", "kunder");

function effectText(effect: WindowsEffect): string {
  const parts = [`${papers(effect.changed)} får en ny sista returdag`, `${formatCount(effect.nowPassed)} blir passerade i dag`];
  if (effect.reopened > 0) parts.push(`${formatCount(effect.reopened)} går att returnera igen`);
  return parts.join("; ");
}

export function windowsQuestion(effect: WindowsEffect, input: { main: number; inserts: number }): Question | null {
  if (effect.changed === 0) return null;
  return {
    title: "Spara returfönstret?",
    text: `Huvudtidningar ${input.main} dagar, bilagor ${input.inserts} dagar: ${effectText(effect)}. Utgåvor med eget returfönster ändras inte.`,
  };
}

export function editionQuestion(effect: WindowsEffect, edition: string, days: number | null): Question | null {
  if (effect.changed === 0) return null;
  const window = days === null ? "papperstypens returfönster" : `${days} dagar`;
  return { title: "Spara utgåvans returfönster?", text: `${edition}, ${window}: ${effectText(effect)}.` };
}

export function policyQuestion(reach: PolicyReach, input: { lateReturns: LatePolicy; deadlineLock: boolean }): Question | null {
  const parts: string[] = [];
  if (input.lateReturns !== reach.lateReturns) {
    parts.push(
      input.lateReturns === "reject"
        ? `Sena returer nekas: ${papers(reach.passed)} som passerat sista returdag utan retur kan inte längre returneras.`
        : `Sena returer tas emot och märks som sena: ${papers(reach.passed)} som passerat sista returdag utan retur kan returneras igen.`,
    );
  }
  if (input.deadlineLock !== reach.deadlineLock) {
    parts.push(
      input.deadlineLock
        ? `Portalen låses dagen före sista returdag: ${customers(reach.dueCustomers)} har tidningar med sista returdag i dag eller i morgon och låses nu tills de har rapporterat.`
        : `Portalen låses inte längre dagen före sista returdag: ${customers(reach.dueCustomers)} som är låsta nu släpps.`,
    );
  }
  if (parts.length === 0) return null;
  return { title: "Spara distributörens regler?", text: `${reach.name}, ${customers(reach.customers)}. ${parts.join(" ")}` };
}
