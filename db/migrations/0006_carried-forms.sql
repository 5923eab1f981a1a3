CREATE TABLE `carried_forms` (
	`id` text PRIMARY KEY NOT NULL,
	`customer_id` integer NOT NULL,
	`path` text NOT NULL,
	`body` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `carried_forms_expires` ON `carried_forms` (`expires_at`);