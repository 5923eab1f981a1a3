ALTER TABLE `invoice_runs` ADD `status` text DEFAULT 'done' NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_runs` ADD `planned` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `invoice_runs` ADD `heartbeat_at` integer;--> statement-breakpoint
ALTER TABLE `invoice_runs` ADD `finished_at` integer;--> statement-breakpoint
ALTER TABLE `invoice_runs` ADD `message` text;--> statement-breakpoint
CREATE UNIQUE INDEX `invoice_runs_one_running` ON `invoice_runs` (`status`) WHERE status = 'running';