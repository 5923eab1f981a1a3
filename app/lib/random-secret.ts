// Passwords made for someone to type once (an admin's one-time password, the demo's logins):
// random, from letters and digits without look-alikes (no 0/O, 1/l/I).
import { randomInt } from "node:crypto";

const ALPHABET = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

export function randomSecret(length = 16): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}
