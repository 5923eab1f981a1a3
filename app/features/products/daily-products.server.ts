// Daily products (Dagens produkter): covers and extra descriptions per title,
// edition and date. A cover uploaded for a product that exists is attached and
// published at once; otherwise it waits as a pending (unpublished) upload and is
// attached when staff save that product. These feed the retailers' Aktuella produkter.
import { createHash } from "node:crypto";
import { and, asc, desc, eq, gte, lte } from "drizzle-orm";
import { getDb, schema, writeTransaction, type Tx } from "~/db.server";
import { audit, type Actor } from "~/features/audit/audit.server";
import { isValidDate } from "~/lib/dates";
import { refuse } from "~/lib/refusal";
import { cleanUploadName } from "~/lib/form-fields";
import { imageSize } from "image-size";
import { config } from "~/config.server";
import { EAN_CODE, EAN_RULE, LAST_DAY_RULE, PRICE_ORE, PRICE_RULE } from "./schemas";
import { portalNow } from "../../../db/clock";

export const MAX_COVER_BYTES = 2 * 1024 * 1024;

/** The image type by its magic bytes (the file name is not trusted). */
export function detectImageType(bytes: Uint8Array): "image/jpeg" | "image/png" | "image/webp" | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => bytes[at + i] === b);
  if (starts([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return null;
}

/**
 * Why an image's pixel size is refused, or null: larger than IMAGE_MAX_SIZE (default
 * 4000 × 4000), or no size can be read. Read from the file's header before anything is
 * stored, so a 60000 × 60000 cover that would take gigabytes to draw never is.
 */
export function imagePixelProblem(bytes: Uint8Array, max = config.imageMaxSize): string | null {
  let size: { width?: number; height?: number };
  try {
    size = imageSize(bytes);
  } catch {
    return "Bildens storlek går inte att läsa. Spara om den som JPEG, PNG eller WebP och försök igen.";
  }
  const { width = 0, height = 0 } = size;
  if (width < 1 || height < 1) return "Bildens storlek går inte att läsa. Spara om den som JPEG, PNG eller WebP och försök igen.";
  if (width > max.width || height > max.height) return `Bilden är ${width} × ${height} bildpunkter; högst ${max.width} × ${max.height} tas emot. Förminska den och försök igen.`;
  return null;
}

/** Refuses (invalid, with the message per field) when `errors` has any. */
function refuseIfAny(errors: Record<string, string>) {
  if (Object.keys(errors).length > 0) throw refuse.invalid(Object.values(errors)[0]!, { fields: errors });
}

type Key = { titleId: number; editionId: number; date: string };

async function checkKey(k: Key) {
  const errors: Record<string, string> = {};
  if (!isValidDate(k.date)) errors.date = "Ogiltigt datum (ÅÅÅÅ-MM-DD).";
  const [edition] = await getDb()
    .select()
    .from(schema.editions)
    .where(and(eq(schema.editions.titleId, k.titleId), eq(schema.editions.editionId, k.editionId)));
  if (!edition) errors.edition = "Utgåvan hör inte till titeln.";
  return { errors, edition };
}

async function findProduct(tx: Tx, k: Key) {
  const d = schema.dailyProducts;
  const [row] = await tx
    .select({ id: d.id, coverImageId: d.coverImageId })
    .from(d)
    .where(and(eq(d.titleId, k.titleId), eq(d.editionId, k.editionId), eq(d.startDate, k.date)));
  return row ?? null;
}

/** The newest cover waiting for title, edition and date, published now (the caller attaches it), or null. */
async function publishPendingCover(tx: Tx, k: Key): Promise<{ id: number } | null> {
  const img = schema.images;
  const [pending] = await tx
    .select({ id: img.id })
    .from(img)
    .where(and(eq(img.published, false), eq(img.titleId, k.titleId), eq(img.editionId, k.editionId), eq(img.date, k.date)))
    .orderBy(desc(img.id))
    .limit(1);
  if (pending) await tx.update(img).set({ published: true, updatedAt: portalNow() }).where(eq(img.id, pending.id));
  return pending ?? null;
}

export const NO_PRODUCT_FOR_DESCRIPTION =
  "Det finns ingen produkt för den titeln, utgåvan och dagen ännu, så beskrivningen kan inte sparas. Lägg till produkten under Ny produkt, eller töm Extra beskrivning för att bara ladda upp omslaget.";

/**
 * Stores a cover, and the extra description typed in the same form. Returns whether it
 * was attached to an existing product (published). A description for a product that does
 * not exist yet is refused before anything is stored, so nothing typed is dropped.
 */
export async function uploadCover(
  input: Key & { filename: string; bytes: Uint8Array; extraDescription?: string },
  actor: Actor,
): Promise<{ imageId: number; published: boolean; described: boolean }> {
  const description = input.extraDescription?.trim() ?? "";
  const { errors } = await checkKey(input);
  if (description.length > 500) errors.extraDescription = "Högst 500 tecken.";
  if (input.bytes.length > MAX_COVER_BYTES) errors.file = "Filen är större än 2 MB.";
  const contentType = detectImageType(input.bytes);
  if (!contentType && !errors.file) errors.file = "Endast JPEG-, PNG- eller WebP-bilder kan laddas upp.";
  const pixels = errors.file ? null : imagePixelProblem(input.bytes);
  if (pixels) errors.file = pixels;
  refuseIfAny(errors);
  const sha256 = createHash("sha256").update(input.bytes).digest("hex");
  return writeTransaction(async (tx) => {
    const product = await findProduct(tx, input);
    if (description && !product) throw refuse.notFound(NO_PRODUCT_FOR_DESCRIPTION, { field: "extraDescription" });
    const [image] = await tx
      .insert(schema.images)
      .values({
        filename: cleanUploadName(input.filename, "omslag"),
        contentType: contentType!,
        data: Buffer.from(input.bytes),
        sha256,
        published: !!product,
        titleId: input.titleId,
        editionId: input.editionId,
        date: input.date,
      })
      .returning({ id: schema.images.id });
    if (product) {
      await tx
        .update(schema.dailyProducts)
        .set({ coverImageId: image.id, ...(description ? { extraDescription: description } : {}), updatedAt: portalNow() })
        .where(eq(schema.dailyProducts.id, product.id));
    }
    await audit(
      { actor, action: "daily-product.cover", target: `image:${image.id}`, detail: { ...input, bytes: input.bytes.length, published: !!product } },
      tx,
    );
    return { imageId: image.id, published: !!product, described: description !== "" };
  });
}

export const NO_PRODUCT_TO_DESCRIBE =
  "Det finns ingen produkt för den titeln, utgåvan och dagen. En beskrivning skapar ingen produkt: lägg till produkten under Ny produkt eller med produktfilen, och beskriv den sedan.";

/**
 * Saves the extra description of the existing product for title, edition and date; the
 * newest pending cover for the same key is then attached and published. A description
 * never creates or prices a product (it used to publish one at 0,00 kr): with
 * no product for the key it is refused, everything typed kept.
 */
export async function saveExtraDescription(input: Key & { extraDescription: string }, actor: Actor): Promise<number> {
  const { errors } = await checkKey(input);
  if (input.extraDescription.length > 500) errors.extraDescription = "Högst 500 tecken.";
  refuseIfAny(errors);
  return writeTransaction(async (tx) => {
    const d = schema.dailyProducts;
    const product = await findProduct(tx, input);
    if (!product) throw refuse.notFound(NO_PRODUCT_TO_DESCRIBE, { field: "extraDescription" });
    const pending = await publishPendingCover(tx, input);
    await tx
      .update(d)
      .set({ extraDescription: input.extraDescription.trim(), ...(pending ? { coverImageId: pending.id } : {}), updatedAt: portalNow() })
      .where(eq(d.id, product.id));
    await audit(
      { actor, action: "daily-product.describe", target: `daily-product:${product.id}`, detail: { extraDescription: input.extraDescription, cover: pending?.id ?? null } },
      tx,
    );
    return product.id;
  });
}

/** Pending (unpublished) uploads, newest first. */
export function listPendingImages() {
  const img = schema.images;
  return getDb()
    .select({ id: img.id, filename: img.filename, createdAt: img.createdAt, titleId: img.titleId, editionId: img.editionId, date: img.date })
    .from(img)
    .where(eq(img.published, false))
    .orderBy(desc(img.id))
    .limit(100);
}

/** Products on sale on `date`, with title and edition names. */
export function listProductsOn(date: string) {
  const d = schema.dailyProducts;
  const t = schema.titles;
  return getDb()
    .select({
      id: d.id,
      titleId: d.titleId,
      title: t.name,
      editionId: d.editionId,
      description: d.description,
      extraDescription: d.extraDescription,
      startDate: d.startDate,
      endDate: d.endDate,
      priceOre: d.priceOre,
      eanCode: d.eanCode,
      coverImageId: d.coverImageId,
    })
    .from(d)
    .innerJoin(t, eq(t.id, d.titleId))
    .where(and(lte(d.startDate, date), gte(d.endDate, date)))
    .orderBy(asc(d.titleId), asc(d.editionId));
}

export async function getDailyProduct(id: number) {
  const d = schema.dailyProducts;
  const [row] = await getDb()
    .select({ id: d.id, titleId: d.titleId, editionId: d.editionId, startDate: d.startDate, extraDescription: d.extraDescription })
    .from(d)
    .where(eq(d.id, id));
  return row ?? null;
}

/** An image for /bilder/{id}: published ones for everybody, pending ones for staff only. */
export async function getImage(id: number, includePending: boolean) {
  const img = schema.images;
  const [row] = await getDb()
    .select({ contentType: img.contentType, data: img.data, sha256: img.sha256, filename: img.filename })
    .from(img)
    .where(and(eq(img.id, id), includePending ? undefined : eq(img.published, true)));
  return row ?? null;
}

export type DailyProductInput = Key & { endDate: string; heading: string; description: string; priceOre: number; eanCode: string };

/**
 * Creates a product for title, edition and first day, or prices an existing one (the same
 * rules as the products file: last day not before the first, a price, an EAN of 8–14
 * digits). Stored by storeDailyProduct, the one write path. Returns the product and
 * whether it is new.
 */
export async function saveDailyProduct(input: DailyProductInput, actor: Actor): Promise<{ id: number; created: boolean }> {
  const { errors } = await checkKey(input);
  if (!isValidDate(input.endDate)) errors.endDate = "Ogiltigt datum (ÅÅÅÅ-MM-DD).";
  else if (input.endDate < input.date) errors.endDate = LAST_DAY_RULE;
  if (!Number.isInteger(input.priceOre) || input.priceOre < PRICE_ORE.min || input.priceOre > PRICE_ORE.max) errors.price = PRICE_RULE;
  if (input.eanCode && !EAN_CODE.test(input.eanCode)) errors.eanCode = EAN_RULE;
  refuseIfAny(errors);
  return writeTransaction((tx) => storeDailyProduct(tx, input, actor));
}

/**
 * Stores a checked product, from Ny produkt or a line of the products file alike: created,
 * or priced in place (the staff's extra description and cover stay); a cover waiting for
 * it is attached and published; Logg gets the add or the new price.
 */
export async function storeDailyProduct(tx: Tx, input: DailyProductInput, actor: Actor): Promise<{ id: number; created: boolean }> {
  const d = schema.dailyProducts;
  const existing = await findProduct(tx, input);
  const values = { endDate: input.endDate, heading: input.heading, description: input.description, priceOre: input.priceOre, eanCode: input.eanCode };
  let id: number;
  if (existing) {
    id = existing.id;
    await tx.update(d).set({ ...values, updatedAt: portalNow() }).where(eq(d.id, id));
  } else {
    [{ id }] = await tx.insert(d).values({ titleId: input.titleId, editionId: input.editionId, startDate: input.date, ...values }).returning({ id: d.id });
  }
  const pending = await publishPendingCover(tx, input);
  if (pending) await tx.update(d).set({ coverImageId: pending.id }).where(eq(d.id, id));
  await audit({ actor, action: existing ? "daily-product.price" : "daily-product.add", target: `daily-product:${id}`, detail: { ...input, cover: pending?.id ?? null } }, tx);
  return { id, created: !existing };
}
