// A setting db/ cannot work with (DATABASE_URL, PORTAL_WRITE_WAIT_MS, PORTAL_CLOCK_OFFSET_MS).
// It imports nothing, so db/clock.ts, which also goes into the browser's bundle, can use it.

const SETTING_PROBLEM = "SettingProblem";

/**
 * An Error (db/ has no Refusal, the app's one error class) named so the CLI answers it as
 * the refusal it is (exit 1, the line), not as something broken.
 */
export function settingProblem(message: string): Error {
  return Object.assign(new Error(message), { name: SETTING_PROBLEM });
}

/** Whether `e` is settingProblem's error. */
export function isSettingProblem(e: unknown): e is Error {
  return e instanceof Error && e.name === SETTING_PROBLEM;
}
