ALTER TABLE `staff_users` ADD `password_set_at` integer;--> statement-breakpoint
ALTER TABLE `staff_users` ADD `password_one_time_used_at` integer;--> statement-breakpoint
-- A password set before this migration counts as set when the row last changed: a one-time
-- password older than 72 hours stops working (decision 035).
UPDATE `staff_users` SET `password_set_at` = `updated_at`;