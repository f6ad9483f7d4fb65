CREATE TABLE "account_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"role" text NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "account_tokens_purpose_check" CHECK ("account_tokens"."purpose" in ('email-verify', 'handoff'))
);
--> statement-breakpoint
ALTER TABLE "login_failures" DROP CONSTRAINT "login_failures_role_email_pk";--> statement-breakpoint
ALTER TABLE "reminders" ALTER COLUMN "to_email" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD COLUMN "client" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "login_failures" ADD CONSTRAINT "login_failures_role_email_client_pk" PRIMARY KEY("role","email","client");--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
-- Accounts made before this migration stay unverified: an address nobody proved must not become
-- trusted by a migration (the dashboard banner sends them a link).
CREATE INDEX "account_tokens_account_idx" ON "account_tokens" USING btree ("role","account_id","purpose","created_at");--> statement-breakpoint
CREATE INDEX "account_tokens_expires_idx" ON "account_tokens" USING btree ("expires_at");