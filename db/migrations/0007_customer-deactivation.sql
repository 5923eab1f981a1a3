ALTER TABLE `customers` ADD `deactivated_at` integer;--> statement-breakpoint
CREATE INDEX `customers_name` ON `customers` (`name`);