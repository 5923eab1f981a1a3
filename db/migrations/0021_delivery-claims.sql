CREATE TABLE `claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`delivery_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`copies` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`approved` integer,
	`reason` text,
	`decided_by` text,
	`decided_at` integer,
	`invoice_id` integer,
	`run_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`run_id`) REFERENCES `invoice_runs`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "claim_status" CHECK("claims"."status" in ('open', 'withdrawn', 'approved', 'partly', 'rejected')),
	CONSTRAINT "claim_approved" CHECK("claims"."approved" is null or ("claims"."approved" >= 0 and "claims"."approved" <= "claims"."copies"))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `claims_delivery` ON `claims` (`delivery_id`);--> statement-breakpoint
CREATE INDEX `claims_customer` ON `claims` (`customer_id`);--> statement-breakpoint
CREATE INDEX `claims_to_credit` ON `claims` (`customer_id`) WHERE approved > 0 and invoice_id is null;--> statement-breakpoint
INSERT INTO `claims` (`delivery_id`, `customer_id`, `copies`, `status`, `created_at`, `updated_at`)
SELECT `id`, `customer_id`, `delivered` - `received`, 'open', coalesce(`received_at`, `updated_at`), coalesce(`received_at`, `updated_at`)
FROM `deliveries` WHERE `received` IS NOT NULL AND `received` < `delivered` ORDER BY `id`;
