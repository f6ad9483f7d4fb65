CREATE TABLE "drafts" (
	"doctor_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"form" text NOT NULL,
	"values" jsonb NOT NULL,
	"step" integer NOT NULL,
	"saved_at" timestamp with time zone NOT NULL,
	CONSTRAINT "drafts_doctor_id_form_patient_id_pk" PRIMARY KEY("doctor_id","form","patient_id"),
	CONSTRAINT "drafts_form_check" CHECK ("drafts"."form" in ('medical-record', 'prescription'))
);
--> statement-breakpoint
ALTER TABLE "drafts" ADD CONSTRAINT "drafts_doctor_id_patient_id_assignments_doctor_id_patient_id_fk" FOREIGN KEY ("doctor_id","patient_id") REFERENCES "public"."assignments"("doctor_id","patient_id") ON DELETE cascade ON UPDATE no action;