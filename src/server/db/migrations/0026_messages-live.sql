-- Direct messages (issue 22, docs/decisions/0019-messages-and-reports.md): the indexes the
-- contract's tables (migration 0024) need beyond their own.
-- Who may fetch a message's image (features/media → messages): the messages that name a stored file.
CREATE INDEX IF NOT EXISTS "direct_messages_image_idx" ON "direct_messages" USING btree ("image_key") WHERE "image_key" IS NOT NULL;--> statement-breakpoint
-- The header's unread badge: a person's conversations with unread messages, without reading the rest.
CREATE INDEX IF NOT EXISTS "conversation_members_unread_user_idx" ON "conversation_members" USING btree ("user_id") WHERE "unread_count" > 0;
