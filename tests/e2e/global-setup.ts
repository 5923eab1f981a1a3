import { mkdirSync } from "node:fs";

export default function globalSetup() {
  mkdirSync("tests/.tmp", { recursive: true });
}
