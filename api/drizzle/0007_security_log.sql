ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_action_check";--> statement-breakpoint
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_entity_check";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_action_check" CHECK ("audit_log"."action" in ('read', 'create', 'update', 'list', 'summarize', 'revoke', 'sign-in', 'sign-in-failed', 'sign-out', '2fa-on', '2fa-off', 'password-change', 'email-change', 'password-reset', 'email-verify'));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_entity_check" CHECK ("audit_log"."entity" in ('medical_record', 'prescription', 'medical_file', 'reminder', 'assignment', 'account'));--> statement-breakpoint
-- The security log reads an account's own rows (entity 'account', entity_id the account).
CREATE INDEX "audit_log_entity_at_idx" ON "audit_log" USING btree ("entity_id","at");
