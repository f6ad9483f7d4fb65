ALTER TABLE "account_tokens" DROP CONSTRAINT "account_tokens_purpose_check";--> statement-breakpoint
ALTER TABLE "account_tokens" ADD CONSTRAINT "account_tokens_purpose_check" CHECK ("account_tokens"."purpose" in ('email-verify', 'handoff', 'password-reset'));--> statement-breakpoint
INSERT INTO "account_tokens" ("token_hash", "purpose", "role", "account_id", "email", "account_version", "created_at", "expires_at", "used_at")
  SELECT "token_hash", 'password-reset', "role", "account_id", NULL, "account_version", "created_at", "expires_at", "used_at" FROM "password_resets"
  ON CONFLICT ("token_hash") DO NOTHING;--> statement-breakpoint
DROP TABLE "password_resets" CASCADE;
