// Shared by server and client (no .server suffix): bundle progress rules of spec 9.
export const PROGRESS_ORANGE_FROM = 40;
export const PROGRESS_RED_FROM = 50;

/** Green below 40 returns, orange 40–49, red from 50. */
export function progressColour(total: number): "green" | "orange" | "red" {
  return total >= PROGRESS_RED_FROM ? "red" : total >= PROGRESS_ORANGE_FROM ? "orange" : "green";
}

/** The fill is twice the count, in percent, capped at full. */
export function progressFill(total: number): number {
  return Math.min(total * 2, 100);
}
