// Aktuella produkter: the daily products on sale now or coming, for the retailer's
// services page, and the published cover images they show.
import { and, asc, eq, gte } from "drizzle-orm";
import { getDb, schema } from "~/db.server";
import { today as todayDate } from "~/lib/dates";

export type CurrentProduct = {
  id: number;
  title: string;
  heading: string;
  description: string;
  extraDescription: string;
  startDate: string;
  endDate: string;
  priceOre: number;
  eanCode: string;
  coverImageId: number | null;
};

export type ProductGroup = { heading: string; products: CurrentProduct[] };

/** Products whose period has not ended, grouped by heading (the title's name when a product has none). */
export async function listCurrentProducts(today = todayDate(), limit = 200): Promise<ProductGroup[]> {
  const d = schema.dailyProducts;
  const t = schema.titles;
  const img = schema.images;
  const rows = await getDb()
    .select({
      id: d.id,
      title: t.name,
      heading: d.heading,
      description: d.description,
      extraDescription: d.extraDescription,
      startDate: d.startDate,
      endDate: d.endDate,
      priceOre: d.priceOre,
      eanCode: d.eanCode,
      imageId: img.id,
    })
    .from(d)
    .innerJoin(t, eq(t.id, d.titleId))
    // Only the published flag is read here; the image bytes are served by /bilder/{id}.
    .leftJoin(img, and(eq(img.id, d.coverImageId), eq(img.published, true)))
    .where(gte(d.endDate, today))
    .orderBy(asc(d.heading), asc(d.startDate), asc(d.id))
    .limit(limit);
  const groups = new Map<string, CurrentProduct[]>();
  for (const { imageId, ...r } of rows) {
    const heading = r.heading.trim() || r.title;
    const list = groups.get(heading) ?? [];
    list.push({ ...r, heading, coverImageId: imageId });
    groups.set(heading, list);
  }
  return [...groups].map(([heading, products]) => ({ heading, products }));
}

export type PublishedImage = { contentType: string; data: Buffer; sha256: string };

/** A cover image for /bilder/{id}; pending (unpublished) uploads are not served. */
export async function getPublishedImage(id: number): Promise<PublishedImage | null> {
  const img = schema.images;
  const [row] = await getDb()
    .select({ contentType: img.contentType, data: img.data, sha256: img.sha256 })
    .from(img)
    .where(and(eq(img.id, id), eq(img.published, true)));
  return row ?? null;
}
