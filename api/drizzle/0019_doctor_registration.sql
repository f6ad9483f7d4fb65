-- Doctors made before registrations were asked get none, and stay unverified (no connection requests)
-- until an operator verifies them: `npm run operator -- verify-doctor <email>`.
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "registration_register" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "registration_number" text;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "registration_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "doctors" ADD COLUMN "registration_verified_by" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('read', 'create', 'update', 'list', 'summarize', 'revoke', 'sign-in', 'sign-in-failed', 'sign-out', '2fa-on', '2fa-off', 'password-change', 'email-change', 'password-reset', 'email-verify', 'override', 'denied', 'sessions-ended', 'recovery-code-sign-in', 'recovery-codes', 'email-change-withdrawn', 'takeover', 'registration-verified'));