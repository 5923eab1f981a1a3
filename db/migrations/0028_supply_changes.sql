CREATE TABLE `supply_changes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`title_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	`weekday` integer,
	`one_off_date` text,
	`old_copies` integer NOT NULL,
	`requested` integer NOT NULL,
	`new_copies` integer,
	`status` text NOT NULL,
	`origin` text NOT NULL,
	`suggestion` text,
	`reason` text,
	`start_date` text NOT NULL,
	`cutoff_at` integer NOT NULL,
	`created_by` text NOT NULL,
	`decided_at` integer,
	`decided_by` text,
	`answered_at` integer,
	`export_id` integer,
	`in_force_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`export_id`) REFERENCES `supply_exports`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "supply_change_when" CHECK(("supply_changes"."weekday" is null) <> ("supply_changes"."one_off_date" is null)),
	CONSTRAINT "supply_change_weekday" CHECK("supply_changes"."weekday" is null or "supply_changes"."weekday" between 1 and 7),
	CONSTRAINT "supply_change_status" CHECK("supply_changes"."status" in ('sent', 'approved', 'adjusted', 'rejected', 'withdrawn', 'proposed', 'declined', 'in_force')),
	CONSTRAINT "supply_change_origin" CHECK("supply_changes"."origin" in ('retailer', 'staff')),
	CONSTRAINT "supply_change_copies" CHECK("supply_changes"."requested" between 0 and 9999 and "supply_changes"."old_copies" >= 0 and ("supply_changes"."new_copies" is null or "supply_changes"."new_copies" between 0 and 9999))
);
--> statement-breakpoint
CREATE INDEX `supply_changes_customer` ON `supply_changes` (`customer_id`,`title_id`,`edition_id`);--> statement-breakpoint
CREATE INDEX `supply_changes_status_start` ON `supply_changes` (`status`,`start_date`);--> statement-breakpoint
CREATE INDEX `supply_changes_to_export` ON `supply_changes` (`id`) WHERE "supply_changes"."status" in ('approved', 'adjusted') and "supply_changes"."export_id" is null;--> statement-breakpoint
CREATE INDEX `supply_changes_export` ON `supply_changes` (`export_id`);--> statement-breakpoint
CREATE TABLE `supply_exports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_by` text NOT NULL,
	`row_count` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
