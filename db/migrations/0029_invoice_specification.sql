ALTER TABLE `invoices` ADD `specification` text;--> statement-breakpoint
-- The specification is part of the record (decision 038): written once, with the invoice.
-- Invoices issued before this migration have none and print without it.
DROP TRIGGER `invoices_record_once`;--> statement-breakpoint
CREATE TRIGGER `invoices_record_once` BEFORE UPDATE OF `buyer`, `seller`, `credits`, `specification` ON `invoices`
WHEN (old.buyer IS NOT NULL AND new.buyer IS NOT old.buyer) OR (old.seller IS NOT NULL AND new.seller IS NOT old.seller) OR (old.credits IS NOT NULL AND new.credits IS NOT old.credits)
  OR (old.specification IS NOT NULL AND new.specification IS NOT old.specification) BEGIN
  SELECT RAISE(ABORT, 'an issued invoice never changes');
END;
