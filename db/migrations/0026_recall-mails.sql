ALTER TABLE `recall_customers` ADD `mail_state` text;--> statement-breakpoint
ALTER TABLE `recall_customers` ADD `mail_to` text;--> statement-breakpoint
ALTER TABLE `recall_customers` ADD `mail_at` integer;--> statement-breakpoint
ALTER TABLE `recall_customers` ADD `mail_attempts` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `recall_customers` ADD `mail_next_at` integer;--> statement-breakpoint
CREATE INDEX `recall_customers_mail` ON `recall_customers` (`mail_state`,`mail_next_at`);