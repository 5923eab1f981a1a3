// The retailer's bundle forms: closing one bundle (the start page's dialog) and the
// confirm step after a returns save (Öppen/Stängd per open bundle, spec 2.5, 4, 9).
import { BUNDLE_NUMBER } from "~/catalog";
import { z } from "~/lib/zod";
import { CLOSE_REFUSED, type BundleChoice } from "./bundle-words";

export { BUNDLE_NUMBER };

/** With JavaScript the dialog posts `js=1` and gets data back instead of a redirect. */
const js = z.unknown().optional().transform((v) => v === "1");

export const closeBundleSchema = z.object({
  intent: z.literal("close", { error: CLOSE_REFUSED }),
  bunt: z.string({ error: CLOSE_REFUSED }).regex(BUNDLE_NUMBER, CLOSE_REFUSED).transform(Number),
  js,
});


/**
 * `b.<number>` = open | closed for each open bundle. A field that is neither (or names a
 * bundle that is not the customer's open one) is no decision: the rule (decideBundles)
 * then asks for one, as it asks for any bundle left undecided.
 */
export const bundleDecisionsSchema = z.object({
  b: z
    .record(z.string(), z.unknown())
    .optional()
    .transform((fields) => {
      const decisions: Record<number, BundleChoice> = {};
      for (const [number, value] of Object.entries(fields ?? {})) {
        if (BUNDLE_NUMBER.test(number) && (value === "open" || value === "closed")) decisions[Number(number)] = value;
      }
      return decisions;
    }),
  /**
   * The bundles the page showed as open: "3,7", "-" when it showed none.
   * Absent (an old page, a hand-made post): undefined, and the step decides as before.
   */
  shown: z
    .unknown()
    .optional()
    .transform((value) =>
      typeof value !== "string"
        ? undefined
        : value
            .split(",")
            .map((n) => n.trim())
            .filter((n) => BUNDLE_NUMBER.test(n))
            .map(Number),
    ),
  js,
});
