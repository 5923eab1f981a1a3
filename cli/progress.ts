// A progress bar on stderr, drawn only when stderr is a terminal (never in logs or
// pipes), redrawn at most ten times a second.
import { portalNow } from "../db/clock";
export type Progress = { update(done: number, total: number): void; finish(): void };

export function progressBar(label: string, stream: { write(text: string): unknown; isTTY?: boolean }): Progress {
  const tty = Boolean(stream.isTTY);
  let drawn = false;
  let last = 0;
  return {
    update(done, total) {
      if (!tty) return;
      const now = portalNow();
      if (done < total && now - last < 100) return;
      last = now;
      const width = 30;
      const share = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(width * share);
      stream.write(`\r${label} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}`);
      drawn = true;
    },
    finish() {
      if (tty && drawn) stream.write("\r\x1b[K");
      drawn = false;
    },
  };
}

export function seconds(started: number): string {
  return `${((portalNow() - started) / 1000).toFixed(1)} s`;
}
