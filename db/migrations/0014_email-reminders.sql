CREATE TABLE `email_reminders` (
	`customer_id` integer PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`key` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `reminder_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`day` text NOT NULL,
	`email` text NOT NULL,
	`papers` integer NOT NULL,
	`state` text NOT NULL,
	`message_id` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reminder_log_customer_day` ON `reminder_log` (`customer_id`,`day`);--> statement-breakpoint
CREATE INDEX `reminder_log_day` ON `reminder_log` (`day`);