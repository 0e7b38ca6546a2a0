-- Every change to a session, a user or a profile is announced on the channel hearth_auth, so each app
-- process can drop what it cached about that session or user, whichever code path made the change.
CREATE OR REPLACE FUNCTION hearth_notify_session_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_auth', 's:' || OLD.id);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_user_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_auth', 'u:' || OLD.id);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_profile_change() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_auth', 'u:' || OLD.user_id);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER session_changed AFTER UPDATE OR DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION hearth_notify_session_change();
--> statement-breakpoint
CREATE TRIGGER user_changed AFTER UPDATE OR DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION hearth_notify_user_change();
--> statement-breakpoint
CREATE TRIGGER user_profile_changed AFTER UPDATE OR DELETE ON "user_profiles" FOR EACH ROW EXECUTE FUNCTION hearth_notify_profile_change();
