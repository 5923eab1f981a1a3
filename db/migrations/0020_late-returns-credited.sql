ALTER TABLE `returns` ADD `credited` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `returns_uncredited` ON `returns` (`customer_id`) WHERE amount <> credited;--> statement-breakpoint
UPDATE `returns` SET `credited` = coalesce(
  (SELECT sum(c.amount) FROM invoice_credits c WHERE c.return_id = returns.id),
  (SELECT returns.amount FROM deliveries d JOIN editions e ON e.title_id = d.title_id AND e.edition_id = d.edition_id
     JOIN invoices i ON i.customer_id = d.customer_id AND i.paper_type = e.type AND i.period_from <= d.delivery_date AND i.period_to >= d.delivery_date
     WHERE d.id = returns.delivery_id AND i.created_at >= returns.created_at LIMIT 1),
  (SELECT returns.amount FROM deliveries d JOIN invoice_runs ru ON d.delivery_date BETWEEN ru.period_from AND ru.period_to
     WHERE d.id = returns.delivery_id AND ru.status = 'done' AND ru.ran_at >= returns.created_at
       AND NOT EXISTS (SELECT 1 FROM editions e JOIN invoices i ON i.customer_id = d.customer_id AND i.paper_type = e.type AND i.period_from <= d.delivery_date AND i.period_to >= d.delivery_date
                       WHERE e.title_id = d.title_id AND e.edition_id = d.edition_id) LIMIT 1),
  0);
