CREATE TABLE `return_windows` (
	`paper_type` integer PRIMARY KEY NOT NULL,
	`days` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "return_window_type" CHECK("return_windows"."paper_type" in (0, 1)),
	CONSTRAINT "return_window_days" CHECK("return_windows"."days" between 1 and 14)
);
--> statement-breakpoint
-- Decision 018: main newspapers 7 days, inserts 14 (the whole report window).
INSERT INTO `return_windows` (`paper_type`, `days`) VALUES (0, 7), (1, 14);
--> statement-breakpoint
-- drizzle-kit generated a table rebuild for the checks below (and copied columns the old
-- tables do not have); ADD COLUMN with a column check does the same without a rebuild.
ALTER TABLE `distributors` ADD `late_returns` text DEFAULT 'reject' NOT NULL CONSTRAINT "late_returns_policy" CHECK(`late_returns` in ('reject', 'accept'));
--> statement-breakpoint
ALTER TABLE `distributors` ADD `deadline_lock` integer DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE `editions` ADD `return_days` integer CONSTRAINT "edition_return_days" CHECK(`return_days` is null or `return_days` between 1 and 14);
--> statement-breakpoint
ALTER TABLE `returns` ADD `late` integer DEFAULT false NOT NULL;
--> statement-breakpoint
CREATE INDEX `returns_late` ON `returns` (`delivery_id`) WHERE late = 1;
--> statement-breakpoint
CREATE INDEX `deliveries_unreported` ON `deliveries` (`delivery_date`,`customer_id`) WHERE reported_at is null;
