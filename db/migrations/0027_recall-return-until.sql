ALTER TABLE `recalls` ADD `return_until` text DEFAULT '' NOT NULL;--> statement-breakpoint
-- Recalls made before: their deadline's date (UTC+1, as in winter) + 14 days.
UPDATE `recalls` SET `return_until` = date(`deadline_at` / 1000 + 3600, 'unixepoch', '+14 days');