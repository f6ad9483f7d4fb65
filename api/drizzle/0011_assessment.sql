ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_check";--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "assessment" jsonb;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "summary_info" jsonb;--> statement-breakpoint
ALTER TABLE "medical_records" ADD COLUMN "has_vitals" boolean GENERATED ALWAYS AS ((coalesce(btrim(examination->'generalPhysicalExamination'->>'bloodPressure'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'pulse'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'temperature'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'respiratoryRate'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'oxygenSaturation'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'supplementalOxygen'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'consciousness'), '') <> '' or coalesce(btrim(examination->'generalPhysicalExamination'->>'bloodSugarLevel'), '') <> '')) STORED;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "pregnancy" jsonb;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "clinical_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "medical_records_patient_vitals_idx" ON "medical_records" USING btree ("patient_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "medical_records"."has_vitals";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_check" CHECK ("audit_log"."entity" in ('medical_record', 'prescription', 'medical_file', 'reminder', 'assignment', 'account', 'allergy_intolerance', 'pregnancy'));--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): a patient's clinical version moves on with
-- every write that a record's assessment or summary reads, so no write path can forget to.
CREATE FUNCTION "bump_clinical_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "patients" SET "clinical_version" = "clinical_version" + 1
  WHERE "id" = (CASE WHEN TG_OP = 'DELETE' THEN OLD."patient_id" ELSE NEW."patient_id" END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "medical_records_bump_clinical_version" AFTER INSERT ON "medical_records" FOR EACH ROW EXECUTE FUNCTION "bump_clinical_version"();--> statement-breakpoint
CREATE TRIGGER "prescriptions_bump_clinical_version" AFTER INSERT OR UPDATE OR DELETE ON "prescriptions" FOR EACH ROW EXECUTE FUNCTION "bump_clinical_version"();--> statement-breakpoint
CREATE TRIGGER "allergy_intolerances_bump_clinical_version" AFTER INSERT OR UPDATE OR DELETE ON "allergy_intolerances" FOR EACH ROW EXECUTE FUNCTION "bump_clinical_version"();--> statement-breakpoint
CREATE FUNCTION "patients_bump_clinical_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."dob" IS DISTINCT FROM OLD."dob" OR NEW."pregnancy" IS DISTINCT FROM OLD."pregnancy" THEN
    NEW."clinical_version" := OLD."clinical_version" + 1;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "patients_bump_clinical_version" BEFORE UPDATE OF "dob", "pregnancy" ON "patients" FOR EACH ROW EXECUTE FUNCTION "patients_bump_clinical_version"();
