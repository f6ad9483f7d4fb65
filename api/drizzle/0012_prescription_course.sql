ALTER TABLE "allergy_intolerances" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "ends_on" date;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "long_term" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "stopped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "stopped_by" text;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "stop_reason" text;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "override" jsonb;--> statement-breakpoint
ALTER TABLE "prescriptions" ADD COLUMN "uncoded" text[] DEFAULT '{}'::text[] NOT NULL;