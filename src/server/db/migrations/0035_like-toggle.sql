-- Like toggles, fast (issue 23, item 4; docs/decisions/0028-likes-and-votes-announced-by-the-app.md). A like toggle was three
-- statements and two notifying commits: the reader's state on hearth_viewer and the author's points
-- on hearth_members, both from triggers. PostgreSQL holds the notification queue's lock from a
-- notifying transaction's pre-commit to its end, so notifying commits run one at a time, each with
-- its WAL flush: toggles could not be faster than one commit after another.
--
-- Now a toggle is one statement (the function below), and it may ask the triggers of those two
-- channels to stay quiet for its transaction (the setting hearth.app_announces): the app then
-- announces the same payloads itself right after the commit, many toggles in one notifying
-- statement (src/server/lib/announcer.ts). Every other write that touches likes, saves, votes,
-- memberships or points is announced by the triggers as before.
CREATE OR REPLACE FUNCTION hearth_app_announces() RETURNS boolean AS $$
  SELECT coalesce(current_setting('hearth.app_announces', true), '') = 'on'
$$ LANGUAGE sql STABLE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_viewer_insert() RETURNS trigger AS $$
BEGIN
  IF hearth_app_announces() THEN RETURN NULL; END IF;
  PERFORM pg_notify('hearth_viewer', u || '.' || p) FROM (SELECT DISTINCT user_id AS u, post_id AS p FROM changed) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_viewer_delete() RETURNS trigger AS $$
BEGIN
  IF hearth_app_announces() THEN RETURN NULL; END IF;
  PERFORM pg_notify('hearth_viewer', u || '.' || p)
     FROM (SELECT DISTINCT c.user_id AS u, c.post_id AS p FROM changed c
            WHERE EXISTS (SELECT 1 FROM posts WHERE posts.id = c.post_id)) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_viewer_update() RETURNS trigger AS $$
BEGIN
  IF hearth_app_announces() THEN RETURN NULL; END IF;
  PERFORM pg_notify('hearth_viewer', u || '.' || p)
     FROM (SELECT user_id AS u, post_id AS p FROM new_rows UNION SELECT user_id, post_id FROM old_rows) s;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_notify_member() RETURNS trigger AS $$
BEGIN
  IF hearth_app_announces() THEN RETURN NULL; END IF;
  PERFORM pg_notify('hearth_members', coalesce(NEW.community_id, OLD.community_id)::text || '.' || coalesce(NEW.user_id, OLD.user_id));
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Removes the person's like of the post if there is one, else adds it; likes_count (and the author's
-- points) move with the row by the triggers, and the count is read after them. Returns
-- [liked (1 or 0), likes_count, notify_author (1 or 0)]: notify_author when the post is now liked
-- and its author has never had a notification of this person's like of it (there is one per
-- author, liker and post). A scalar, so that a statement can call it only when its access check
-- allows (in a CASE). With p_app_announces the caller announces `user.post` on hearth_viewer and
-- `community.author` on hearth_members after the commit; it must run in a transaction of its own
-- then, since the setting lasts to the transaction's end.
CREATE OR REPLACE FUNCTION hearth_toggle_post_like(p_post uuid, p_user text, p_app_announces boolean)
RETURNS integer[] AS $$
DECLARE
  removed integer;
  n_likes integer;
  v_author text;
BEGIN
  IF p_app_announces THEN PERFORM set_config('hearth.app_announces', 'on', true); END IF;
  DELETE FROM post_likes l WHERE l.post_id = p_post AND l.user_id = p_user;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed = 0 THEN
    INSERT INTO post_likes (post_id, user_id) VALUES (p_post, p_user) ON CONFLICT DO NOTHING;
  END IF;
  SELECT p.likes_count, p.author_id INTO n_likes, v_author FROM posts p WHERE p.id = p_post;
  IF NOT FOUND THEN RETURN NULL; END IF;
  RETURN ARRAY[
    CASE WHEN removed = 0 THEN 1 ELSE 0 END,
    n_likes,
    CASE WHEN removed = 0 AND v_author IS NOT NULL AND v_author <> p_user AND NOT EXISTS (
           SELECT 1 FROM notifications n
            WHERE n.type = 'post_like' AND n.user_id = v_author AND n.actor_id = p_user
              AND n.data->>'post_id' = p_post::text) THEN 1 ELSE 0 END];
END $$ LANGUAGE plpgsql;
