-- Comment like toggles as post like toggles (migration 0035; decision 0028): one statement, and the
-- author's points announced by the app after the commit instead of by a trigger in it. A member's
-- toggle was a transaction of four or five round trips with a notifying commit (hearth_members, from
-- the points trigger), and notifying commits run one after another.
--
-- Removes the person's like of the comment if there is one, else adds it; likes_count (and the
-- author's points) move with the row by the triggers, and the count is read after them. Returns
-- [liked (1 or 0), likes_count], or NULL when the comment is gone. With p_app_announces the caller
-- announces `community.author` on hearth_members after the commit; it must run in a transaction of
-- its own then, since the setting lasts to the transaction's end.
CREATE OR REPLACE FUNCTION hearth_toggle_comment_like(p_comment uuid, p_user text, p_app_announces boolean)
RETURNS integer[] AS $$
DECLARE
  removed integer;
  n_likes integer;
BEGIN
  IF p_app_announces THEN PERFORM set_config('hearth.app_announces', 'on', true); END IF;
  DELETE FROM comment_likes l WHERE l.comment_id = p_comment AND l.user_id = p_user;
  GET DIAGNOSTICS removed = ROW_COUNT;
  IF removed = 0 THEN
    INSERT INTO comment_likes (comment_id, user_id) VALUES (p_comment, p_user) ON CONFLICT DO NOTHING;
  END IF;
  SELECT c.likes_count INTO n_likes FROM comments c WHERE c.id = p_comment;
  IF NOT FOUND THEN RETURN NULL; END IF;
  RETURN ARRAY[CASE WHEN removed = 0 THEN 1 ELSE 0 END, n_likes];
END $$ LANGUAGE plpgsql;
