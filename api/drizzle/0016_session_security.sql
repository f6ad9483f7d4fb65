CREATE TABLE "connection_misses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"account_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"role" text NOT NULL,
	"account_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "account_tokens" ADD COLUMN "account_version" integer;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "security_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "password_resets" ADD COLUMN "account_version" integer;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "security_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "user_agent" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "ip" text;--> statement-breakpoint
CREATE INDEX "connection_misses_sender_idx" ON "connection_misses" USING btree ("role","account_id","at");--> statement-breakpoint
CREATE INDEX "recovery_codes_account_idx" ON "recovery_codes" USING btree ("role","account_id");--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('read', 'create', 'update', 'list', 'summarize', 'revoke', 'sign-in', 'sign-in-failed', 'sign-out', '2fa-on', '2fa-off', 'password-change', 'email-change', 'password-reset', 'email-verify', 'override', 'denied', 'sessions-ended', 'recovery-code-sign-in', 'recovery-codes', 'email-change-withdrawn', 'takeover'));--> statement-breakpoint
CREATE FUNCTION "bump_security_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW."email" IS DISTINCT FROM OLD."email" OR NEW."password_hash" IS DISTINCT FROM OLD."password_hash"
     OR NEW."email_verified_at" IS DISTINCT FROM OLD."email_verified_at" THEN
    NEW."security_version" := OLD."security_version" + 1;
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER "patients_bump_security_version" BEFORE UPDATE OF "email", "password_hash", "email_verified_at" ON "patients" FOR EACH ROW EXECUTE FUNCTION "bump_security_version"();--> statement-breakpoint
CREATE TRIGGER "doctors_bump_security_version" BEFORE UPDATE OF "email", "password_hash", "email_verified_at" ON "doctors" FOR EACH ROW EXECUTE FUNCTION "bump_security_version"();
