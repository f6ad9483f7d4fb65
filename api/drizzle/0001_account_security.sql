CREATE TABLE "oidc_logins" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"code_verifier" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "password_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"role" text NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "password_resets_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_secret" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_pending_secret" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_last_step" bigint;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_failures_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "two_factor_login_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "profile_complete" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_secret" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_pending_secret" text;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_last_step" bigint;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_failures_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "two_factor_login_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "oidc_logins_expires_idx" ON "oidc_logins" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "password_resets_account_idx" ON "password_resets" USING btree ("role","account_id");--> statement-breakpoint
CREATE INDEX "password_resets_expires_idx" ON "password_resets" USING btree ("expires_at");