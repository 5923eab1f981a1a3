CREATE TABLE `payout_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor` text NOT NULL,
	`made_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`customers` integer NOT NULL,
	`guarantees` integer NOT NULL,
	`amount_ore` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `payout_batches_made` ON `payout_batches` (`made_at`);--> statement-breakpoint
CREATE TABLE `payout_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`batch_id` integer NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`content` blob NOT NULL,
	`ledger` integer NOT NULL,
	`week` text NOT NULL,
	`customers` integer NOT NULL,
	`amount_ore` integer NOT NULL,
	FOREIGN KEY (`batch_id`) REFERENCES `payout_batches`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payout_files_batch` ON `payout_files` (`batch_id`);--> statement-breakpoint
ALTER TABLE `guarantees` ADD `batch_id` integer REFERENCES payout_batches(id);