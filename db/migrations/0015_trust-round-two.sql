ALTER TABLE `audit_log` ADD `on_behalf_of` text;--> statement-breakpoint
ALTER TABLE `staff_users` ADD `password_one_time` integer DEFAULT false NOT NULL;