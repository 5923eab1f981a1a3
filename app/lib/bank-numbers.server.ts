// Swedish payment numbers checked the way the banks check them: a bankgiro number is 7–8
// digits with a modulus-10 check digit; a bank account is a clearing number and an account
// number by the banks' published rules (kontonummer, which follows Bankgirot's "Bankernas
// kontonummeruppbyggnad"); an organisationsnummer by its check digit (organisationsnummer).
// Each answers the number in one written form, or null (docs/decisions/020-payout-details.md).
import Kontonummer from "kontonummer";
import Organisationsnummer from "organisationsnummer";
import { luhnValid } from "./luhn";

/** A bankgiro number as written ("5050-1055"), or null when it is no bankgiro number. */
export function bankgiroOf(raw: string): string | null {
  const digits = raw.replace(/[\s-]/g, "");
  // All zeros passes the check digit but is no one's number.
  if (!/^\d{7,8}$/.test(digits) || /^0+$/.test(digits) || !luhnValid(digits)) return null;
  return `${digits.slice(0, -4)}-${digits.slice(-4)}`;
}

/**
 * A bank account as the bank writes it ("6000, 123 456 789"), or null: the clearing number
 * in the banks' ranges, the account's length, and its check digit for every account type
 * (strict mode: a Nordea personkonto or a Handelsbanken account with a wrong check digit is
 * refused, decision 020).
 */
export function bankAccountOf(raw: string): string | null {
  if (!/^[\d\s,.-]+$/.test(raw)) return null;
  try {
    return Kontonummer.parse(raw, { mode: "strict" }).format("pretty");
  } catch {
    return null;
  }
}

/** A Swedish IBAN without spaces ("SE4550000000058398257466"), or null: SE, 22 digits, ISO 13616's mod-97 check. */
export function swedishIbanOf(raw: string): string | null {
  const iban = raw.replace(/\s/g, "").toUpperCase();
  if (!/^SE\d{22}$/.test(iban)) return null;
  // Country and check digits moved to the end, letters as numbers (S = 28, E = 14): the remainder by 97 is 1.
  const digits = `${iban.slice(4)}2814${iban.slice(2, 4)}`;
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1 ? iban : null;
}

/** An organisationsnummer (or a sole trader's personnummer) as "556016-0680", or null. */
export function orgNumberOf(raw: string): string | null {
  if (!/^[\d\s+-]+$/.test(raw) || !Organisationsnummer.valid(raw.replace(/\s/g, ""))) return null;
  try {
    return Organisationsnummer.parse(raw.replace(/\s/g, "")).format(true);
  } catch {
    return null;
  }
}
