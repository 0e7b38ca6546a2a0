CREATE TABLE "inbox_versions" (
	"user_id" text PRIMARY KEY NOT NULL,
	"version" bigint DEFAULT 1 NOT NULL
);
--> statement-breakpoint
-- The inbox's version per person (issue 22, docs/decisions/0023-inbox-versions.md): every change
-- that may alter what a person's inbox shows moves their version, whatever code path made it. The
-- rows are taken in user id order within each statement, so two bumps never wait on each other in
-- a cycle.
CREATE OR REPLACE FUNCTION hearth_inbox_bump(ids text[]) RETURNS void AS $$
  INSERT INTO inbox_versions AS v (user_id, version)
  SELECT u, 1 FROM (SELECT DISTINCT u FROM unnest(ids) AS t(u) WHERE u IS NOT NULL ORDER BY u) s
  ON CONFLICT (user_id) DO UPDATE SET version = v.version + 1;
$$ LANGUAGE sql;
--> statement-breakpoint
-- Changed rows that name two people whose inboxes show the change (the trigger's two arguments are
-- the columns): either side of a conversation (a message, a read mark, a new conversation, a
-- deleted account; the other person sees the read mark), a conversation's last message, a block
-- either way (it hides conversations and changes who may write).
CREATE OR REPLACE FUNCTION hearth_inbox_pair() RETURNS trigger AS $$
BEGIN
  EXECUTE format('SELECT hearth_inbox_bump(ARRAY(SELECT %I FROM changed UNION SELECT %I FROM changed))',
                 TG_ARGV[0], TG_ARGV[1]);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER conversation_members_inbox_insert AFTER INSERT ON conversation_members
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_pair('user_id', 'other_user_id');
--> statement-breakpoint
CREATE TRIGGER conversation_members_inbox_update AFTER UPDATE ON conversation_members
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_pair('user_id', 'other_user_id');
--> statement-breakpoint
CREATE TRIGGER conversation_members_inbox_delete AFTER DELETE ON conversation_members
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_pair('user_id', 'other_user_id');
--> statement-breakpoint
CREATE TRIGGER conversations_inbox_update AFTER UPDATE ON conversations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_pair('user_low', 'user_high');
--> statement-breakpoint
CREATE TRIGGER user_blocks_inbox_insert AFTER INSERT ON user_blocks
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_pair('blocker_id', 'blocked_id');
--> statement-breakpoint
CREATE TRIGGER user_blocks_inbox_delete AFTER DELETE ON user_blocks
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_pair('blocker_id', 'blocked_id');
--> statement-breakpoint
-- A message edited or deleted (the preview).
CREATE OR REPLACE FUNCTION hearth_inbox_message() RETURNS trigger AS $$
BEGIN
  PERFORM hearth_inbox_bump(ARRAY(
    SELECT c.user_low FROM changed d JOIN conversations c ON c.id = d.conversation_id
    UNION SELECT c.user_high FROM changed d JOIN conversations c ON c.id = d.conversation_id));
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER direct_messages_inbox_update AFTER UPDATE ON direct_messages
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_message();
--> statement-breakpoint
-- Memberships and bans decide who shares a community (can_send): the person's own inbox and the
-- inboxes of everyone they have a conversation with. People without conversations move nothing.
CREATE OR REPLACE FUNCTION hearth_inbox_member() RETURNS trigger AS $$
BEGIN
  PERFORM hearth_inbox_bump(ARRAY(
    SELECT cm.user_id FROM conversation_members cm WHERE cm.user_id IN (SELECT user_id FROM changed)
    UNION SELECT cm.other_user_id FROM conversation_members cm WHERE cm.user_id IN (SELECT user_id FROM changed)));
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_members_inbox_insert AFTER INSERT ON community_members
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_member();
--> statement-breakpoint
CREATE TRIGGER community_members_inbox_delete AFTER DELETE ON community_members
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_member();
--> statement-breakpoint
CREATE TRIGGER community_bans_inbox_insert AFTER INSERT ON community_bans
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_member();
--> statement-breakpoint
CREATE TRIGGER community_bans_inbox_delete AFTER DELETE ON community_bans
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_inbox_member();
--> statement-breakpoint
-- The other person's name, picture and message setting are shown (and decide can_send).
CREATE OR REPLACE FUNCTION hearth_inbox_profile() RETURNS trigger AS $$
DECLARE
  who text := coalesce(NEW.user_id, OLD.user_id);
BEGIN
  IF EXISTS (SELECT 1 FROM conversation_members WHERE user_id = who) THEN
    PERFORM hearth_inbox_bump(ARRAY(SELECT other_user_id FROM conversation_members WHERE user_id = who) || who);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER user_profiles_inbox_insert_delete AFTER INSERT OR DELETE ON user_profiles
  FOR EACH ROW EXECUTE FUNCTION hearth_inbox_profile();
--> statement-breakpoint
CREATE TRIGGER user_profiles_inbox_update AFTER UPDATE OF username, full_name, avatar_url, allow_messages ON user_profiles
  FOR EACH ROW WHEN (OLD.username IS DISTINCT FROM NEW.username OR OLD.full_name IS DISTINCT FROM NEW.full_name
                     OR OLD.avatar_url IS DISTINCT FROM NEW.avatar_url OR OLD.allow_messages IS DISTINCT FROM NEW.allow_messages)
  EXECUTE FUNCTION hearth_inbox_profile();
