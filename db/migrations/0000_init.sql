CREATE TABLE `applied_submissions` (
	`token` text PRIMARY KEY NOT NULL,
	`customer_id` integer NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text,
	`detail` text,
	`ip` text,
	`request_id` text
);
--> statement-breakpoint
CREATE INDEX `audit_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_action` ON `audit_log` (`action`,`at`);--> statement-breakpoint
CREATE TABLE `bundles` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`number` integer NOT NULL,
	`type` integer NOT NULL,
	`open` integer DEFAULT true NOT NULL,
	`closed_date` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "bundle_type" CHECK("bundles"."type" in (0, 1))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `bundles_customer_number` ON `bundles` (`customer_id`,`number`);--> statement-breakpoint
CREATE INDEX `bundles_customer_open` ON `bundles` (`customer_id`,`open`,`type`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`address` text DEFAULT '' NOT NULL,
	`zip` text DEFAULT '' NOT NULL,
	`city` text DEFAULT '' NOT NULL,
	`distributor_id` integer NOT NULL,
	`contact` text DEFAULT '' NOT NULL,
	`phone` text DEFAULT '' NOT NULL,
	`email` text DEFAULT '' NOT NULL,
	`pin_hash` text,
	`co_address` text DEFAULT '' NOT NULL,
	`org_number` text DEFAULT '' NOT NULL,
	`bankgiro` text DEFAULT '' NOT NULL,
	`bank_account` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`distributor_id`) REFERENCES `distributors`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "customer_id_range" CHECK("customers"."id" between 1 and 99999)
);
--> statement-breakpoint
CREATE INDEX `customers_distributor` ON `customers` (`distributor_id`);--> statement-breakpoint
CREATE TABLE `daily_products` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	`heading` text DEFAULT '' NOT NULL,
	`description` text NOT NULL,
	`extra_description` text DEFAULT '' NOT NULL,
	`start_date` text NOT NULL,
	`end_date` text NOT NULL,
	`price_ore` integer DEFAULT 0 NOT NULL,
	`ean_code` text DEFAULT '' NOT NULL,
	`cover_image_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`title_id`) REFERENCES `titles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`cover_image_id`) REFERENCES `images`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `daily_products_natural` ON `daily_products` (`title_id`,`edition_id`,`start_date`);--> statement-breakpoint
CREATE INDEX `daily_products_end` ON `daily_products` (`end_date`);--> statement-breakpoint
CREATE TABLE `deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`title_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	`delivery_date` text NOT NULL,
	`delivered` integer NOT NULL,
	`price_ore` integer NOT NULL,
	`received` integer,
	`received_at` integer,
	`reported_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "delivered_nonneg" CHECK("deliveries"."delivered" >= 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `deliveries_natural` ON `deliveries` (`customer_id`,`title_id`,`edition_id`,`delivery_date`);--> statement-breakpoint
CREATE INDEX `deliveries_customer_date` ON `deliveries` (`customer_id`,`delivery_date`);--> statement-breakpoint
CREATE INDEX `deliveries_date` ON `deliveries` (`delivery_date`,`customer_id`);--> statement-breakpoint
CREATE TABLE `distributors` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `editions` (
	`title_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	`type` integer NOT NULL,
	`description` text NOT NULL,
	`code` text DEFAULT '' NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`title_id`, `edition_id`),
	FOREIGN KEY (`title_id`) REFERENCES `titles`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "edition_type" CHECK("editions"."type" in (0, 1))
);
--> statement-breakpoint
CREATE TABLE `extra_invoice_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`created_by` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`created_by`) REFERENCES `staff_users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `extra_invoice_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_id` integer NOT NULL,
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
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `extra_invoice_lines_pending` ON `extra_invoice_lines` (`invoice_id`,`customer_id`);--> statement-breakpoint
CREATE TABLE `guarantees` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`ledger` integer NOT NULL,
	`amount_ore` integer NOT NULL,
	`refunded` integer DEFAULT false NOT NULL,
	`refund_date` text,
	`completed_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `guarantees_customer` ON `guarantees` (`customer_id`,`ledger`);--> statement-breakpoint
CREATE INDEX `guarantees_refunds` ON `guarantees` (`refunded`,`completed_at`);--> statement-breakpoint
CREATE TABLE `holiday_reports` (
	`holiday_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`open` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`customer_id`, `holiday_id`),
	FOREIGN KEY (`holiday_id`) REFERENCES `holidays`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `holidays` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`description_id` integer,
	`description` text NOT NULL,
	`day` text NOT NULL,
	`start_report_day` text NOT NULL,
	`start_force_report_day` text NOT NULL,
	`completed` integer DEFAULT false NOT NULL,
	`deleted` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `holidays_day` ON `holidays` (`day`);--> statement-breakpoint
CREATE TABLE `images` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`filename` text NOT NULL,
	`content_type` text NOT NULL,
	`data` blob NOT NULL,
	`sha256` text NOT NULL,
	`published` integer DEFAULT false NOT NULL,
	`title_id` integer,
	`edition_id` integer,
	`date` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `invoice_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`invoice_id` integer NOT NULL,
	`description` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price_ore` integer NOT NULL,
	`vat_permille` integer NOT NULL,
	`net_ore` integer NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `invoice_lines_invoice` ON `invoice_lines` (`invoice_id`);--> statement-breakpoint
CREATE TABLE `invoices` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`paper_type` integer NOT NULL,
	`date` text NOT NULL,
	`due_date` text NOT NULL,
	`period_from` text NOT NULL,
	`period_to` text NOT NULL,
	`net_ore` integer NOT NULL,
	`vat_ore` integer NOT NULL,
	`amount_ore` integer NOT NULL,
	`status` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_number_unique` ON `invoices` (`number`);--> statement-breakpoint
CREATE INDEX `invoices_customer` ON `invoices` (`customer_id`,`paper_type`,`date`);--> statement-breakpoint
CREATE UNIQUE INDEX `invoices_period` ON `invoices` (`customer_id`,`paper_type`,`period_from`,`period_to`);--> statement-breakpoint
CREATE TABLE `label_blocks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`type` integer NOT NULL,
	`status` text NOT NULL,
	`from_date` text NOT NULL,
	`to_date` text NOT NULL,
	`from_number` integer NOT NULL,
	`to_number` integer NOT NULL,
	`number_unused` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "label_range" CHECK("label_blocks"."from_number" <= "label_blocks"."to_number" and "label_blocks"."from_number" >= 1 and "label_blocks"."to_number" <= 99999)
);
--> statement-breakpoint
CREATE INDEX `label_blocks_customer` ON `label_blocks` (`customer_id`,`from_number`);--> statement-breakpoint
CREATE TABLE `login_throttle` (
	`key` text PRIMARY KEY NOT NULL,
	`failures` integer DEFAULT 0 NOT NULL,
	`last_failure_at` integer NOT NULL,
	`blocked_until` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `message_customers` (
	`message_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	PRIMARY KEY(`message_id`, `customer_id`),
	FOREIGN KEY (`message_id`) REFERENCES `messages`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `message_customers_customer` ON `message_customers` (`customer_id`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` integer NOT NULL,
	`header` text NOT NULL,
	`content` text NOT NULL,
	`start_date` text NOT NULL,
	`stop_date` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_dates` ON `messages` (`stop_date`,`start_date`);--> statement-breakpoint
CREATE TABLE `order_files` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`filename` text NOT NULL,
	`row_count` integer NOT NULL,
	`uploaded_by` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `order_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`order_date` text NOT NULL,
	`article_number` text NOT NULL,
	`article_description` text NOT NULL,
	`amount` integer NOT NULL,
	`price_ore` integer NOT NULL,
	`ledger` integer NOT NULL,
	`transferred_at` integer,
	`invoice_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`file_id`) REFERENCES `order_files`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_lines_natural` ON `order_lines` (`customer_id`,`order_date`,`article_number`,`ledger`);--> statement-breakpoint
CREATE INDEX `order_lines_file` ON `order_lines` (`file_id`);--> statement-breakpoint
CREATE INDEX `order_lines_pending` ON `order_lines` (`transferred_at`,`invoice_id`);--> statement-breakpoint
CREATE TABLE `placards` (
	`customer_id` integer NOT NULL,
	`title_id` integer NOT NULL,
	`amount` integer DEFAULT 0 NOT NULL,
	`new_amount` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	PRIMARY KEY(`customer_id`, `title_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`title_id`) REFERENCES `titles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `product_information` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title_id` integer NOT NULL,
	`edition_id` integer NOT NULL,
	`delivery_date` text,
	`product_code` text NOT NULL,
	`account_code` text NOT NULL,
	`article_id` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`title_id`) REFERENCES `titles`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `product_information_title` ON `product_information` (`title_id`,`edition_id`);--> statement-breakpoint
CREATE TABLE `returns` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`bundle_id` integer NOT NULL,
	`delivery_id` integer NOT NULL,
	`amount` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`bundle_id`) REFERENCES `bundles`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`delivery_id`) REFERENCES `deliveries`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "return_amount" CHECK("returns"."amount" between 0 and 999)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `returns_natural` ON `returns` (`customer_id`,`bundle_id`,`delivery_id`);--> statement-breakpoint
CREATE INDEX `returns_delivery` ON `returns` (`delivery_id`);--> statement-breakpoint
CREATE INDEX `returns_bundle` ON `returns` (`bundle_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` integer,
	`staff_id` integer,
	`impersonator_id` integer,
	`data` text DEFAULT '{}' NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`staff_id`) REFERENCES `staff_users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`impersonator_id`) REFERENCES `staff_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_customer` ON `sessions` (`customer_id`);--> statement-breakpoint
CREATE INDEX `sessions_staff` ON `sessions` (`staff_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `shortcuts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`staff_id` integer NOT NULL,
	`name` text NOT NULL,
	`url` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`staff_id`) REFERENCES `staff_users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `shortcuts_staff` ON `shortcuts` (`staff_id`);--> statement-breakpoint
CREATE TABLE `staff_users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`name` text NOT NULL,
	`password_hash` text NOT NULL,
	`roles` text NOT NULL,
	`distributor_id` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`distributor_id`) REFERENCES `distributors`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `staff_users_email_unique` ON `staff_users` (`email`);--> statement-breakpoint
CREATE TABLE `titles` (
	`id` integer PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`ledger` integer NOT NULL
);
