// The payout file a bank takes (decision 034): an ISO 20022 customer credit transfer
// initiation, pain.001.001.03, the message Swedish banks and Bankgirot accept for domestic
// payments to bankgiro numbers and bank accounts. One file per title and ISO week (as the
// CSV); one payment instruction per execution date; one transaction per customer with the
// customer number and the title's week as the payee's reference. The payer is the seller
// (SELLER_NAME) paying from PAYOUT_IBAN (with PAYOUT_BIC), or else from its bankgiro
// (SELLER_BANKGIRO). The message id is made from the payments, so the same payouts fetched
// again carry the same id and a bank refuses them twice. tests/schemas/pain.001.001.03.xsd is the message's schema; npm test
// validates files against it with xmllint.
import { createHash } from "node:crypto";
import Kontonummer from "kontonummer";
import type { Seller } from "~/config.server";
import { stockholmWallClock } from "~/lib/dates";
import type { Refund } from "./refund";

const NS = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.03";
/** Bankgirot's clearing number: the agent of a payment to or from a bankgiro number. */
const BANKGIROT_CLEARING = "9900";

export type Pain001Options = {
  seller: Seller;
  /** The title's ledger (83), in words ("Aftonbladet"), and the payout's ISO week ("2026-v50"). */
  ledger: number;
  title: string;
  week: string;
  /** When the file is made (its creation time). */
  createdAt: Date;
};

/** Text as XML character data: escaped, control characters dropped, cut to `max` code points. */
function text(value: string, max: number): string {
  const clean = [...value.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").trim()].slice(0, max).join("");
  return clean.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/** 123450 öre -> "1234.50" (ISO 20022 amounts: a decimal point, two decimals). */
function amount(ore: number): string {
  return `${Math.floor(ore / 100)}.${String(ore % 100).padStart(2, "0")}`;
}

/** A Stockholm moment without a zone name, as Swedish banks' examples write CreDtTm. */
function localDateTime(at: Date): string {
  return stockholmWallClock(at).toISOString().slice(0, 19);
}

function element(name: string, body: string): string {
  return `<${name}>${body}</${name}>`;
}

/** Clearing system member (Swedish clearing numbers, "SESBA"). */
function clearingAgent(clearing: string): string {
  return element("FinInstnId", element("ClrSysMmbId", element("ClrSysId", element("Cd", "SESBA")) + element("MmbId", clearing)));
}

/** The payee's account and agent: its bankgiro number when it has one, else its bank account (BBAN). */
function creditorAccount(r: Refund): { agent: string; account: string } {
  const bankgiro = r.bankgiro.replace(/\D/g, "");
  if (bankgiro) {
    return { agent: clearingAgent(BANKGIROT_CLEARING), account: element("Othr", element("Id", bankgiro) + element("SchmeNm", element("Prtry", "BGNR"))) };
  }
  const parsed = Kontonummer.parse(r.bankAccount, { mode: "strict" });
  const clearing = parsed.sortingCode.replace(/\D/g, "");
  return {
    agent: clearingAgent(clearing.slice(0, 4)),
    account: element("Othr", element("Id", clearing + parsed.accountNumber.replace(/\D/g, "")) + element("SchmeNm", element("Cd", "BBAN"))),
  };
}

function debtorAccount(seller: Seller): { agent: string; account: string } {
  if (seller.payoutIban) {
    return {
      agent: seller.payoutBic ? element("FinInstnId", element("BIC", seller.payoutBic)) : element("FinInstnId", element("Othr", element("Id", "NOTPROVIDED"))),
      account: element("IBAN", seller.payoutIban),
    };
  }
  return {
    agent: clearingAgent(BANKGIROT_CLEARING),
    account: element("Othr", element("Id", seller.bankgiro.replace(/\D/g, "")) + element("SchmeNm", element("Prtry", "BGNR"))),
  };
}

/** What the payee reads on the payment: the customer number and the title's week. */
export function payoutReference(r: Pick<Refund, "customerId">, title: string, week: string): string {
  return `Garantibelopp ${title} ${week.replace("-v", " v")} kund ${r.customerId}`;
}

const refundTotal = (r: Refund) => r.amounts.reduce((s, a) => s + a.amountOre, 0);

/**
 * The pain.001.001.03 document of these payouts (complete ones: bank details checked by
 * refundProblems, so the account parses), as UTF-8 text. `refunds` hold only the amounts
 * of one title and week (payoutsOf), each dated by its refundDate.
 */
export function buildPain001(refunds: Refund[], o: Pain001Options): string {
  const week = o.week.replace("-", "");
  // The message id follows from the payments: the same payouts fetched twice (before and after
  // Klarmarkera) make the same id, which a bank refuses to take a second time.
  const payments = refunds.map((r) => `${r.customerId}:${r.refundDate}:${r.amounts.map((a) => `${a.guaranteeId}=${a.amountOre}`).join(",")}`);
  const msgId = `RP${o.ledger}-${week}-${createHash("sha256").update(payments.join(";")).digest("hex").slice(0, 16)}`;
  const byDate = new Map<string, Refund[]>();
  for (const r of refunds) {
    const list = byDate.get(r.refundDate) ?? [];
    list.push(r);
    byDate.set(r.refundDate, list);
  }
  const total = refunds.reduce((s, r) => s + refundTotal(r), 0);
  const debtor = debtorAccount(o.seller);
  const payer = element("Nm", text(o.seller.name, 70));
  const instructions = [...byDate.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, group], i) => {
      const transactions = group.map((r) => {
        const creditor = creditorAccount(r);
        return element(
          "CdtTrfTxInf",
          element("PmtId", element("InstrId", `${r.customerId}-${week}`) + element("EndToEndId", `${r.customerId}-${week}`)) +
            element("Amt", `<InstdAmt Ccy="SEK">${amount(refundTotal(r))}</InstdAmt>`) +
            element("CdtrAgt", creditor.agent) +
            element("Cdtr", element("Nm", text(r.name, 70))) +
            element("CdtrAcct", element("Id", creditor.account)) +
            element("RmtInf", element("Ustrd", text(payoutReference(r, o.title, o.week), 140))),
        );
      });
      return element(
        "PmtInf",
        element("PmtInfId", `${msgId}-${i + 1}`) +
          element("PmtMtd", "TRF") +
          element("NbOfTxs", String(group.length)) +
          element("CtrlSum", amount(group.reduce((s, r) => s + refundTotal(r), 0))) +
          element("PmtTpInf", element("SvcLvl", element("Cd", "NURG"))) +
          element("ReqdExctnDt", date) +
          element("Dbtr", payer) +
          element("DbtrAcct", element("Id", debtor.account) + element("Ccy", "SEK")) +
          element("DbtrAgt", debtor.agent) +
          transactions.join(""),
      );
    });
  const header = element(
    "GrpHdr",
    element("MsgId", msgId) + element("CreDtTm", localDateTime(o.createdAt)) + element("NbOfTxs", String(refunds.length)) + element("CtrlSum", amount(total)) + element("InitgPty", payer),
  );
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Document xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${element("CstmrCdtTrfInitn", header + instructions.join(""))}</Document>\n`;
}
