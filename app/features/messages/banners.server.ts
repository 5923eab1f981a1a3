// Message banners: messages of type 2, 3 and 4 (type 1 is the delivery-day
// message on the delivery note) within their dates, for everyone or for this customer.
import { and, desc, gte, inArray, lte, sql } from "drizzle-orm";
import { preparedQuery, schema } from "~/db.server";
import { today as todayDate } from "~/lib/dates";
import { messageHtml } from "~/lib/html.server";

export type Banner = { id: number; header: string; html: string };

export const BANNER_TYPES = [2, 3, 4] as const;

const bannersOf = preparedQuery((db) => {
  const m = schema.messages;
  const mc = schema.messageCustomers;
  const today = sql.placeholder("today");
  return db
    .select({ id: m.id, header: m.header, content: m.content })
    .from(m)
    .where(
      and(
        gte(m.stopDate, today),
        lte(m.startDate, today),
        inArray(m.type, [...BANNER_TYPES]),
        // No customer rows means the message is for everyone.
        sql`(not exists (select 1 from ${mc} where ${mc.messageId} = ${m.id})
             or exists (select 1 from ${mc} where ${mc.messageId} = ${m.id} and ${mc.customerId} = ${sql.placeholder("customerId")}))`,
      ),
    )
    .orderBy(desc(m.startDate), desc(m.id))
    .limit(10)
    .prepare();
});

export async function listBanners(customerId: number, today = todayDate()): Promise<Banner[]> {
  const rows = await bannersOf().all({ customerId, today });
  // Sanitised on save too; cleaned again here so an old or imported row cannot inject markup.
  return rows.map((r) => ({ id: r.id, header: r.header, html: messageHtml(r.content) }));
}

