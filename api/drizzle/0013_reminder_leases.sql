ALTER TABLE "reminder_deliveries" DROP CONSTRAINT "reminder_deliveries_status_check";--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD COLUMN "lease_holder" uuid;--> statement-breakpoint
CREATE INDEX "reminder_deliveries_lease_idx" ON "reminder_deliveries" USING btree ("lease_until") WHERE status in ('claimed', 'sending');--> statement-breakpoint
-- A row left 'sending' by a runner that died: whether its e-mail left is not known, and it is never sent again.
UPDATE "reminder_deliveries" SET "status" = 'unknown' WHERE "status" = 'sending';--> statement-breakpoint
-- A reminder is 'completed' only once none of its occurrences is still to be sent (a retry pending).
UPDATE "reminders" SET "status" = 'scheduled' WHERE "status" = 'completed' AND EXISTS (SELECT 1 FROM "reminder_deliveries" d WHERE d."reminder_id" = "reminders"."id" AND d."status" = 'failed' AND d."next_attempt_at" IS NOT NULL);--> statement-breakpoint
ALTER TABLE "reminder_deliveries" ADD CONSTRAINT "reminder_deliveries_status_check" CHECK ("reminder_deliveries"."status" in ('claimed', 'sending', 'sent', 'failed', 'unknown'));