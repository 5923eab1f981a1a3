ALTER TABLE `invoices` ADD `buyer` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `seller` text;--> statement-breakpoint
ALTER TABLE `invoices` ADD `credits` text;--> statement-breakpoint
-- Invoices issued before this migration: their buyer and credits as they stand now (the
-- nearest record there is); the seller stays null and prints from the configuration.
UPDATE `invoices` SET `buyer` = (
  SELECT json_object('id', c.id, 'name', c.name, 'coAddress', c.co_address, 'address', c.address, 'zip', c.zip, 'city', c.city, 'orgNumber', c.org_number)
  FROM `customers` c WHERE c.id = `invoices`.customer_id
);--> statement-breakpoint
UPDATE `invoices` SET `credits` = (
  SELECT coalesce(json_group_array(json_object('bundle', x.bundle, 'copies', x.copies, 'valueOre', x.value_ore)), '[]') FROM (
    SELECT b.number AS bundle, sum(ic.amount) AS copies, sum(ic.amount * d.price_ore) AS value_ore
    FROM invoice_credits ic JOIN returns r ON r.id = ic.return_id JOIN bundles b ON b.id = r.bundle_id JOIN deliveries d ON d.id = r.delivery_id
    WHERE ic.invoice_id = `invoices`.id GROUP BY b.number ORDER BY b.number
  ) x
);
--> statement-breakpoint
-- Every invoice records its buyer as it is when the invoice is inserted, whoever inserts it.
CREATE TRIGGER `invoices_record_buyer` AFTER INSERT ON `invoices` WHEN new.buyer IS NULL BEGIN
  UPDATE `invoices` SET `buyer` = (
    SELECT json_object('id', c.id, 'name', c.name, 'coAddress', c.co_address, 'address', c.address, 'zip', c.zip, 'city', c.city, 'orgNumber', c.org_number)
    FROM `customers` c WHERE c.id = new.customer_id
  ) WHERE `id` = new.id;
END;--> statement-breakpoint
-- An issued invoice is a record: its amounts, dates and lines never change, and what it
-- recorded of buyer, seller and credits is written once.
CREATE TRIGGER `invoices_frozen` BEFORE UPDATE OF `number`, `customer_id`, `paper_type`, `date`, `due_date`, `period_from`, `period_to`, `net_ore`, `vat_ore`, `amount_ore` ON `invoices` BEGIN
  SELECT RAISE(ABORT, 'an issued invoice never changes');
END;--> statement-breakpoint
CREATE TRIGGER `invoices_record_once` BEFORE UPDATE OF `buyer`, `seller`, `credits` ON `invoices`
WHEN (old.buyer IS NOT NULL AND new.buyer IS NOT old.buyer) OR (old.seller IS NOT NULL AND new.seller IS NOT old.seller) OR (old.credits IS NOT NULL AND new.credits IS NOT old.credits) BEGIN
  SELECT RAISE(ABORT, 'an issued invoice never changes');
END;--> statement-breakpoint
CREATE TRIGGER `invoice_lines_frozen` BEFORE UPDATE ON `invoice_lines` BEGIN
  SELECT RAISE(ABORT, 'an issued invoice never changes');
END;
