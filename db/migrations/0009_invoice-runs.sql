CREATE TABLE `invoice_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor` text NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`created` integer NOT NULL,
	`existing` integer NOT NULL,
	`first_number` integer,
	`last_number` integer,
	`net_ore` integer NOT NULL,
	`vat_ore` integer NOT NULL,
	`amount_ore` integer NOT NULL,
	`ran_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `invoice_runs_at` ON `invoice_runs` (`ran_at`);