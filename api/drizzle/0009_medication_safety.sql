CREATE TABLE "allergy_intolerances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"substance_text" text NOT NULL,
	"substance_code" text,
	"type" text NOT NULL,
	"category" text NOT NULL,
	"criticality" text NOT NULL,
	"reactions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"clinical_status" text NOT NULL,
	"verification_status" text NOT NULL,
	"note" text,
	"reviews" text,
	"recorded_by_id" uuid NOT NULL,
	"recorded_by_role" text NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "allergy_intolerances_type_check" CHECK ("allergy_intolerances"."type" in ('allergy', 'intolerance')),
	CONSTRAINT "allergy_intolerances_category_check" CHECK ("allergy_intolerances"."category" in ('medication', 'food', 'environment')),
	CONSTRAINT "allergy_intolerances_criticality_check" CHECK ("allergy_intolerances"."criticality" in ('low', 'high', 'unable-to-assess')),
	CONSTRAINT "allergy_intolerances_clinical_check" CHECK ("allergy_intolerances"."clinical_status" in ('active', 'inactive', 'resolved')),
	CONSTRAINT "allergy_intolerances_verification_check" CHECK ("allergy_intolerances"."verification_status" in ('unconfirmed', 'confirmed', 'refuted')),
	CONSTRAINT "allergy_intolerances_role_check" CHECK ("allergy_intolerances"."recorded_by_role" in ('doctor', 'patient'))
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_check";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "detail" text;--> statement-breakpoint
ALTER TABLE "allergy_intolerances" ADD CONSTRAINT "allergy_intolerances_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allergy_intolerances_patient_idx" ON "allergy_intolerances" USING btree ("patient_id","recorded_at");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('read', 'create', 'update', 'list', 'summarize', 'revoke', 'sign-in', 'sign-in-failed', 'sign-out', '2fa-on', '2fa-off', 'password-change', 'email-change', 'password-reset', 'email-verify', 'override'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_check" CHECK ("audit_log"."entity" in ('medical_record', 'prescription', 'medical_file', 'reminder', 'assignment', 'account', 'allergy_intolerance'));