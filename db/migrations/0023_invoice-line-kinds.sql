ALTER TABLE `invoice_lines` ADD `kind` text;--> statement-breakpoint
ALTER TABLE `invoice_lines` ADD `title_id` integer;--> statement-breakpoint
ALTER TABLE `invoice_lines` ADD `edition_id` integer;