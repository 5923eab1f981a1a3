// A camera that films one bundle label: a Y4M video (what Chromium's
// --use-file-for-fake-video-capture plays, looped) of the label's CODE128 barcode, black on
// white, drawn from bwip-js's bar widths — the same encoding the label PDFs print.
import bwipjs from "bwip-js/node";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const W = 640;
const H = 480;

/** Writes a few seconds of video of the label `text` (10 digits) and returns the file. */
export function fakeCameraFilming(text: string): string {
  const [{ sbs }] = bwipjs.raw("code128", text, "") as unknown as { sbs: number[] }[];
  const module = 4;
  const width = sbs.reduce((a, b) => a + b, 0) * module;
  const y = Buffer.alloc(W * H, 235); // paper, slightly grey as a camera sees it
  const left = Math.floor((W - width) / 2);
  const top = 140;
  const bottom = 340;
  let x = left;
  sbs.forEach((w, i) => {
    const px = w * module;
    if (i % 2 === 0) for (let row = top; row < bottom; row++) y.fill(20, row * W + x, row * W + x + px);
    x += px;
  });
  const chroma = Buffer.alloc((W / 2) * (H / 2), 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), y, chroma, chroma]);
  const header = Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`);
  const file = join(mkdtempSync(join(tmpdir(), "fake-camera-")), "label.y4m");
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: 10 }, () => frame)]));
  return file;
}
