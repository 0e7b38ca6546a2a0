-- The unread count cache (src/server/features/notifications/unread-cache.ts, issue 23): each process
-- keeps a person's count of unread in-app notifications. Every change to which of their notifications
-- are unread is announced on hearth_unread with the user id, which drops that one entry in every
-- process: a notification made (unread, in-app), one read or unread again, one deleted while unread.
-- What decides whether a notification may be seen (the community, the membership, the post, the
-- event) is announced on the channels that already exist (hearth_public, hearth_members,
-- hearth_feed, hearth_calendar). One statement announces each person once, however many rows.
CREATE OR REPLACE FUNCTION hearth_notify_unread_insert_delete() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_unread', u)
     FROM (SELECT DISTINCT user_id AS u FROM changed WHERE in_app AND NOT is_read) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER notifications_unread_insert AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_unread_insert_delete();
--> statement-breakpoint
CREATE TRIGGER notifications_unread_delete AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_unread_insert_delete();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_unread_update() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('hearth_unread', u)
     FROM (SELECT DISTINCT n.user_id AS u FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE (o.is_read, o.in_app, o.user_id) IS DISTINCT FROM (n.is_read, n.in_app, n.user_id)
           UNION
           SELECT o.user_id FROM new_rows n JOIN old_rows o ON o.id = n.id
            WHERE o.user_id IS DISTINCT FROM n.user_id) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER notifications_unread_update AFTER UPDATE ON notifications
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION hearth_notify_unread_update();
