PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_extra_invoice_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_id` integer,
	`created_by` integer,
	`magazine_title` text NOT NULL,
	`customer_id` integer NOT NULL,
	`product_group` text NOT NULL,
	`article_id` text DEFAULT '' NOT NULL,
	`article_name` text NOT NULL,
	`edition_id` integer,
	`product_code` text DEFAULT '' NOT NULL,
	`delivery_date` text NOT NULL,
	`delivered_amount` integer NOT NULL,
	`reclaim_amount` integer DEFAULT 0 NOT NULL,
	`gross_price_ore` integer NOT NULL,
	`netto_price_ore` integer NOT NULL,
	`vat_permille` integer NOT NULL,
	`profit_percentage` integer DEFAULT 0 NOT NULL,
	`edi_reference_text` text DEFAULT '' NOT NULL,
	`invoice_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `extra_invoice_files`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`created_by`) REFERENCES `staff_users`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
INSERT INTO `__new_extra_invoice_lines`("id", "file_id", "magazine_title", "customer_id", "product_group", "article_id", "article_name", "edition_id", "product_code", "delivery_date", "delivered_amount", "reclaim_amount", "gross_price_ore", "netto_price_ore", "vat_permille", "profit_percentage", "edi_reference_text", "invoice_id", "created_at", "updated_at") SELECT "id", "file_id", "magazine_title", "customer_id", "product_group", "article_id", "article_name", "edition_id", "product_code", "delivery_date", "delivered_amount", "reclaim_amount", "gross_price_ore", "netto_price_ore", "vat_permille", "profit_percentage", "edi_reference_text", "invoice_id", "created_at", "updated_at" FROM `extra_invoice_lines`;--> statement-breakpoint
DROP TABLE `extra_invoice_lines`;--> statement-breakpoint
ALTER TABLE `__new_extra_invoice_lines` RENAME TO `extra_invoice_lines`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `extra_invoice_lines_pending` ON `extra_invoice_lines` (`invoice_id`,`customer_id`);--> statement-breakpoint
CREATE INDEX `extra_invoice_lines_file` ON `extra_invoice_lines` (`file_id`,`created_by`);