ALTER TABLE "reminders" ADD COLUMN "patient_name" text;--> statement-breakpoint
-- Reminders scheduled before the column: the name the patient has now is the best there is.
UPDATE "reminders" r SET "patient_name" = p."name" FROM "patients" p WHERE p."id" = r."patient_id";
