-- One product information row per title, edition and delivery date. Rows
-- that were accepted twice before the rule are reduced to the last one saved.
DELETE FROM `product_information` WHERE `id` NOT IN (SELECT max(`id`) FROM `product_information` GROUP BY `title_id`, `edition_id`, coalesce(`delivery_date`, ''));--> statement-breakpoint
CREATE UNIQUE INDEX `product_information_one_per_day` ON `product_information` (`title_id`,`edition_id`,coalesce(`delivery_date`, ''));
