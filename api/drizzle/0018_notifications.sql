CREATE TABLE "notification_preferences" (
	"role" text NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"email" boolean NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "notification_preferences_role_account_id_kind_pk" PRIMARY KEY("role","account_id","kind")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"role" text NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"person_name" text DEFAULT '' NOT NULL,
	"person_email" text DEFAULT '' NOT NULL,
	"person_dob" date,
	"entity_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"read_at" timestamp with time zone,
	CONSTRAINT "notifications_role_check" CHECK ("notifications"."role" in ('patient', 'doctor')),
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."kind" in ('request-received', 'request-accepted', 'request-declined', 'access-ended', 'new-record', 'new-prescription'))
);
--> statement-breakpoint
CREATE INDEX "notifications_account_idx" ON "notifications" USING btree ("role","account_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("role","account_id") WHERE read_at is null;