CREATE TABLE `recall_customers` (
	`recall_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`delivered` integer NOT NULL,
	`acknowledged_at` integer,
	`removed_copies` integer,
	`acknowledged_by` text,
	PRIMARY KEY(`recall_id`, `customer_id`),
	FOREIGN KEY (`recall_id`) REFERENCES `recalls`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `recall_customers_customer` ON `recall_customers` (`customer_id`,`acknowledged_at`);--> statement-breakpoint
CREATE TABLE `recall_distributors` (
	`recall_id` integer NOT NULL,
	`distributor_id` integer NOT NULL,
	PRIMARY KEY(`recall_id`, `distributor_id`),
	FOREIGN KEY (`recall_id`) REFERENCES `recalls`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`distributor_id`) REFERENCES `distributors`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `recall_editions` (
	`recall_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	PRIMARY KEY(`recall_id`, `edition_id`),
	FOREIGN KEY (`recall_id`) REFERENCES `recalls`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `recalls` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title_id` integer NOT NULL,
	`date_from` text NOT NULL,
	`date_to` text NOT NULL,
	`reason` text NOT NULL,
	`action` text NOT NULL,
	`all_distributors` integer NOT NULL,
	`deadline_at` integer NOT NULL,
	`created_by` text NOT NULL,
	`ended_at` integer,
	`ended_by` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	CONSTRAINT "recall_action" CHECK("recalls"."action" in ('returnera', 'forstor')),
	CONSTRAINT "recall_dates" CHECK("recalls"."date_from" <= "recalls"."date_to")
);
