CREATE TABLE `credit_note_lines` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`credit_note_id` integer NOT NULL,
	`invoice_line_id` integer NOT NULL,
	`description` text NOT NULL,
	`quantity` integer NOT NULL,
	`unit_price_ore` integer NOT NULL,
	`vat_permille` integer NOT NULL,
	`net_ore` integer NOT NULL,
	FOREIGN KEY (`credit_note_id`) REFERENCES `credit_notes`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`invoice_line_id`) REFERENCES `invoice_lines`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_note_lines_invoice_line` ON `credit_note_lines` (`invoice_line_id`);--> statement-breakpoint
CREATE INDEX `credit_note_lines_note` ON `credit_note_lines` (`credit_note_id`);--> statement-breakpoint
CREATE TABLE `credit_notes` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` integer NOT NULL,
	`invoice_id` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`paper_type` integer NOT NULL,
	`date` text NOT NULL,
	`reason` text NOT NULL,
	`net_ore` integer NOT NULL,
	`vat_ore` integer NOT NULL,
	`amount_ore` integer NOT NULL,
	`buyer` text,
	`seller` text,
	`actor` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	`updated_at` integer DEFAULT (cast(unixepoch('subsec') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`invoice_id`) REFERENCES `invoices`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `credit_notes_number_unique` ON `credit_notes` (`number`);--> statement-breakpoint
CREATE INDEX `credit_notes_invoice` ON `credit_notes` (`invoice_id`);--> statement-breakpoint
CREATE INDEX `credit_notes_customer` ON `credit_notes` (`customer_id`,`date`);--> statement-breakpoint
CREATE TRIGGER `credit_notes_frozen` BEFORE UPDATE ON `credit_notes` BEGIN
  SELECT RAISE(ABORT, 'a credit note is a record: it is never changed');
END;--> statement-breakpoint
CREATE TRIGGER `credit_notes_kept` BEFORE DELETE ON `credit_notes` BEGIN
  SELECT RAISE(ABORT, 'a credit note is a record: it is never deleted');
END;--> statement-breakpoint
CREATE TRIGGER `credit_note_lines_frozen` BEFORE UPDATE ON `credit_note_lines` BEGIN
  SELECT RAISE(ABORT, 'a credit note is a record: its lines are never changed');
END;--> statement-breakpoint
CREATE TRIGGER `credit_note_lines_kept` BEFORE DELETE ON `credit_note_lines` BEGIN
  SELECT RAISE(ABORT, 'a credit note is a record: its lines are never deleted');
END;
