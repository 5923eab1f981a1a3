CREATE TABLE `invoice_credits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`run_id` integer NOT NULL,
	`invoice_id` integer,
	`return_id` integer NOT NULL,
	`amount` integer NOT NULL,
	FOREIGN KEY (`run_id`) REFERENCES `invoice_runs`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`return_id`) REFERENCES `returns`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_credits_return_run` ON `invoice_credits` (`return_id`,`run_id`);--> statement-breakpoint
CREATE INDEX `invoice_credits_invoice` ON `invoice_credits` (`invoice_id`);