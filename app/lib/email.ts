// The one rule for an e-mail address, wherever one is typed: a customer's, a staff user's
// (the screens, the files and the CLI), the reminders' address and the staff login. What
// mail servers take: one address, no spaces, control or quoting characters, and a dot in
// the domain followed by at least two characters; at most 254 characters (RFC 5321's path
// limit). Each form keeps its own words for the message.

/** The longest address a mail server takes. */
export const EMAIL_MAX_LENGTH = 254;

const PART = String.raw`[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]`;
const EMAIL = new RegExp(`^${PART}+@${PART}+\\.${PART}{2,}$`, "u");

/** Whether `text` (already trimmed) is an e-mail address by the rule above. */
export function isEmailAddress(text: string): boolean {
  return text.length <= EMAIL_MAX_LENGTH && EMAIL.test(text);
}
