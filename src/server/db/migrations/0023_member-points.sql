-- Points and levels (issue 20, docs/decisions/0016-levels-and-requests.md): member_points moves
-- with the rows that make points, in the same transaction, so it stays exact under concurrency.
-- Likes count when the liker is not the author, is not banned in the community, and the post (and
-- the comment) is not deleted. A BEFORE trigger on member_points recomputes points and level from
-- the community's settings; a level above top_level queues one level-up notification.

-- The level `p` points reach with ascending thresholds `t` (t[1] = 0): levelOf in src/shared/levels.ts.
CREATE OR REPLACE FUNCTION hearth_level_of(p integer, t integer[]) RETURNS smallint AS $$
  SELECT (1 + count(*))::smallint FROM unnest(t[2:]) AS x(v) WHERE p >= x.v
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
-- Adds to a member's sources. A decrease only updates an existing row (never inserts: during an
-- account's or a community's removal the row may be gone with them); an increase inserts it when
-- missing, if the community and the person still exist.
CREATE OR REPLACE FUNCTION hearth_points_add(p_community uuid, p_user text, p_likes integer, p_lessons integer, p_events integer)
RETURNS void AS $$
BEGIN
  IF p_likes = 0 AND p_lessons = 0 AND p_events = 0 THEN RETURN; END IF;
  UPDATE member_points
     SET like_points = like_points + p_likes,
         lessons_completed = lessons_completed + p_lessons,
         events_attended = events_attended + p_events,
         updated_at = now()
   WHERE community_id = p_community AND user_id = p_user;
  IF NOT FOUND AND p_likes >= 0 AND p_lessons >= 0 AND p_events >= 0 THEN
    INSERT INTO member_points AS m (community_id, user_id, like_points, lessons_completed, events_attended)
    SELECT p_community, p_user, p_likes, p_lessons, p_events
     WHERE EXISTS (SELECT 1 FROM communities c WHERE c.id = p_community)
       AND EXISTS (SELECT 1 FROM "user" u WHERE u.id = p_user)
    ON CONFLICT (community_id, user_id) DO UPDATE
       SET like_points = m.like_points + EXCLUDED.like_points,
           lessons_completed = m.lessons_completed + EXCLUDED.lessons_completed,
           events_attended = m.events_attended + EXCLUDED.events_attended,
           updated_at = now();
  END IF;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Points and level from the sources and the community's settings. A level change drops the
-- community's cached feed pages (they show author levels); a level above the highest announced
-- one queues its notification (one pending job per member and level).
CREATE OR REPLACE FUNCTION hearth_member_points_level() RETURNS trigger AS $$
DECLARE
  c record;
BEGIN
  SELECT level_thresholds, points_per_lesson, points_per_event INTO c FROM communities WHERE id = NEW.community_id;
  IF NOT FOUND THEN RETURN NEW; END IF;
  NEW.points := NEW.like_points + NEW.lessons_completed * c.points_per_lesson + NEW.events_attended * c.points_per_event;
  NEW.level := hearth_level_of(NEW.points, c.level_thresholds);
  IF NEW.level <> (CASE WHEN TG_OP = 'UPDATE' THEN OLD.level ELSE 1 END) THEN
    PERFORM pg_notify('hearth_feed', NEW.community_id::text);
  END IF;
  IF NEW.level > NEW.top_level THEN
    NEW.top_level := NEW.level;
    INSERT INTO jobs (queue, payload, singleton_key)
    VALUES ('levels.level_up',
            jsonb_build_object('communityId', NEW.community_id, 'userId', NEW.user_id, 'level', NEW.level),
            'level_up:' || NEW.community_id || ':' || NEW.user_id || ':' || NEW.level)
    ON CONFLICT (singleton_key) WHERE singleton_key IS NOT NULL AND done_at IS NULL AND dead_at IS NULL DO NOTHING;
  END IF;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A like of a post: its author gains or loses a point.
CREATE OR REPLACE FUNCTION hearth_post_like_points() RETURNS trigger AS $$
DECLARE
  l post_likes%ROWTYPE;
  p record;
BEGIN
  IF TG_OP = 'INSERT' THEN l := NEW; ELSE l := OLD; END IF;
  SELECT community_id, author_id, deleted_at INTO p FROM posts WHERE id = l.post_id;
  -- No post: it is being removed, and its own trigger took its likes off.
  IF NOT FOUND OR p.deleted_at IS NOT NULL OR p.author_id = l.user_id THEN RETURN NULL; END IF;
  IF EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p.community_id AND b.user_id = l.user_id) THEN
    RETURN NULL;
  END IF;
  PERFORM hearth_points_add(p.community_id, p.author_id, CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END, 0, 0);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER post_likes_points AFTER INSERT OR DELETE ON post_likes
  FOR EACH ROW EXECUTE FUNCTION hearth_post_like_points();
--> statement-breakpoint
-- A like of a comment: the comment's author gains or loses a point.
CREATE OR REPLACE FUNCTION hearth_comment_like_points() RETURNS trigger AS $$
DECLARE
  l comment_likes%ROWTYPE;
  p record;
BEGIN
  IF TG_OP = 'INSERT' THEN l := NEW; ELSE l := OLD; END IF;
  SELECT po.community_id, c.author_id INTO p
    FROM comments c JOIN posts po ON po.id = c.post_id
   WHERE c.id = l.comment_id AND c.deleted_at IS NULL AND po.deleted_at IS NULL;
  IF NOT FOUND OR p.author_id = l.user_id THEN RETURN NULL; END IF;
  IF EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p.community_id AND b.user_id = l.user_id) THEN
    RETURN NULL;
  END IF;
  PERFORM hearth_points_add(p.community_id, p.author_id, CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END, 0, 0);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comment_likes_points AFTER INSERT OR DELETE ON comment_likes
  FOR EACH ROW EXECUTE FUNCTION hearth_comment_like_points();
--> statement-breakpoint
-- Moves the countable likes of a post and of its visible comments by `d` each (-1: the post goes,
-- +1: it comes back), per author.
CREATE OR REPLACE FUNCTION hearth_post_points_move(p_post uuid, p_community uuid, p_author text, d integer)
RETURNS void AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT x.user_id, sum(x.n)::int AS n FROM (
      SELECT p_author AS user_id, count(*) AS n
        FROM post_likes l
       WHERE l.post_id = p_post AND l.user_id <> p_author
         AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p_community AND b.user_id = l.user_id)
      UNION ALL
      SELECT c.author_id, count(*)
        FROM comments c JOIN comment_likes l ON l.comment_id = c.id
       WHERE c.post_id = p_post AND c.deleted_at IS NULL AND l.user_id <> c.author_id
         AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p_community AND b.user_id = l.user_id)
       GROUP BY c.author_id
    ) x GROUP BY x.user_id HAVING sum(x.n) > 0 ORDER BY x.user_id
  LOOP
    PERFORM hearth_points_add(p_community, r.user_id, d * r.n, 0, 0);
  END LOOP;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- Moves the countable likes of one comment by `d` (its post must be visible).
CREATE OR REPLACE FUNCTION hearth_comment_points_move(p_comment uuid, p_post uuid, p_author text, d integer)
RETURNS void AS $$
DECLARE
  v_community uuid;
  n integer;
BEGIN
  SELECT community_id INTO v_community FROM posts WHERE id = p_post AND deleted_at IS NULL;
  IF NOT FOUND THEN RETURN; END IF;
  SELECT count(*) INTO n FROM comment_likes l
   WHERE l.comment_id = p_comment AND l.user_id <> p_author
     AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = v_community AND b.user_id = l.user_id);
  PERFORM hearth_points_add(v_community, p_author, d * n, 0, 0);
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
-- A post deleted (deleted_at set) or restored, or removed for good: its likes and its comments'
-- likes stop or start counting. A hard delete is handled before the row goes, since the likes it
-- cascades to no longer find their post.
CREATE OR REPLACE FUNCTION hearth_post_points() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.deleted_at IS NULL THEN
      PERFORM hearth_post_points_move(OLD.id, OLD.community_id, OLD.author_id, -1);
    END IF;
    RETURN OLD;
  END IF;
  IF (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN
    PERFORM hearth_post_points_move(NEW.id, NEW.community_id, NEW.author_id,
                                    CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER posts_points_delete BEFORE DELETE ON posts
  FOR EACH ROW EXECUTE FUNCTION hearth_post_points();
--> statement-breakpoint
CREATE TRIGGER posts_points_deleted_at AFTER UPDATE OF deleted_at ON posts
  FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION hearth_post_points();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_comment_points() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.deleted_at IS NULL THEN
      PERFORM hearth_comment_points_move(OLD.id, OLD.post_id, OLD.author_id, -1);
    END IF;
    RETURN OLD;
  END IF;
  IF (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL) THEN
    PERFORM hearth_comment_points_move(NEW.id, NEW.post_id, NEW.author_id,
                                       CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER comments_points_delete BEFORE DELETE ON comments
  FOR EACH ROW EXECUTE FUNCTION hearth_comment_points();
--> statement-breakpoint
CREATE TRIGGER comments_points_deleted_at AFTER UPDATE OF deleted_at ON comments
  FOR EACH ROW WHEN ((OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)) EXECUTE FUNCTION hearth_comment_points();
--> statement-breakpoint
-- A ban: the likes the banned person gave in the community stop counting; lifted, they count again.
CREATE OR REPLACE FUNCTION hearth_ban_points() RETURNS trigger AS $$
DECLARE
  b community_bans%ROWTYPE;
  d integer;
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN b := NEW; d := -1; ELSE b := OLD; d := 1; END IF;
  -- The community itself going: nothing to give back.
  IF NOT EXISTS (SELECT 1 FROM communities WHERE id = b.community_id) THEN RETURN NULL; END IF;
  FOR r IN
    SELECT x.user_id, sum(x.n)::int AS n FROM (
      SELECT p.author_id AS user_id, count(*) AS n
        FROM post_likes l JOIN posts p ON p.id = l.post_id
       WHERE l.user_id = b.user_id AND p.community_id = b.community_id AND p.deleted_at IS NULL
         AND p.author_id <> b.user_id
       GROUP BY p.author_id
      UNION ALL
      SELECT c.author_id, count(*)
        FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
       WHERE l.user_id = b.user_id AND p.community_id = b.community_id AND p.deleted_at IS NULL
         AND c.deleted_at IS NULL AND c.author_id <> b.user_id
       GROUP BY c.author_id
    ) x GROUP BY x.user_id ORDER BY x.user_id
  LOOP
    PERFORM hearth_points_add(b.community_id, r.user_id, d * r.n, 0, 0);
  END LOOP;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER community_bans_points AFTER INSERT OR DELETE ON community_bans
  FOR EACH ROW EXECUTE FUNCTION hearth_ban_points();
--> statement-breakpoint
-- A completed lesson counts for its learner in the course's community.
CREATE OR REPLACE FUNCTION hearth_lesson_points() RETURNS trigger AS $$
DECLARE
  l lesson_completions%ROWTYPE;
  v_community uuid;
BEGIN
  IF TG_OP = 'INSERT' THEN l := NEW; ELSE l := OLD; END IF;
  SELECT community_id INTO v_community FROM courses WHERE id = l.course_id;
  -- No course: it is being removed, and its own trigger took its lessons off.
  IF NOT FOUND THEN RETURN NULL; END IF;
  PERFORM hearth_points_add(v_community, l.user_id, 0, CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE -1 END, 0);
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER lesson_completions_points AFTER INSERT OR DELETE ON lesson_completions
  FOR EACH ROW EXECUTE FUNCTION hearth_lesson_points();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_course_points() RETURNS trigger AS $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT user_id, count(*)::int AS n FROM lesson_completions WHERE course_id = OLD.id GROUP BY user_id ORDER BY user_id
  LOOP
    PERFORM hearth_points_add(OLD.community_id, r.user_id, 0, -r.n, 0);
  END LOOP;
  RETURN OLD;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER courses_points_delete BEFORE DELETE ON courses
  FOR EACH ROW EXECUTE FUNCTION hearth_course_points();
--> statement-breakpoint
-- The owner changed thresholds or bonus points: every member's points and level again, in one
-- statement. top_level rises without a notification (a settings edit announces nothing).
CREATE OR REPLACE FUNCTION hearth_community_points() RETURNS trigger AS $$
DECLARE
  changed integer;
BEGIN
  WITH calc AS (
    SELECT m.user_id, m.level AS was, v.points, hearth_level_of(v.points, NEW.level_thresholds) AS level
      FROM member_points m
     CROSS JOIN LATERAL (SELECT m.like_points + m.lessons_completed * NEW.points_per_lesson
                                + m.events_attended * NEW.points_per_event AS points) v
     WHERE m.community_id = NEW.id
  ), upd AS (
    UPDATE member_points m
       SET points = calc.points, level = calc.level, top_level = greatest(m.top_level, calc.level), updated_at = now()
      FROM calc
     WHERE m.community_id = NEW.id AND m.user_id = calc.user_id
       AND (m.points <> calc.points OR m.level <> calc.level)
    RETURNING calc.was <> calc.level AS level_changed
  )
  SELECT count(*) FILTER (WHERE level_changed) INTO changed FROM upd;
  IF changed > 0 THEN
    PERFORM pg_notify('hearth_feed', NEW.id::text);
  END IF;
  RETURN NULL;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER communities_points_settings AFTER UPDATE OF level_thresholds, points_per_lesson, points_per_event ON communities
  FOR EACH ROW WHEN (OLD.level_thresholds IS DISTINCT FROM NEW.level_thresholds
                     OR OLD.points_per_lesson IS DISTINCT FROM NEW.points_per_lesson
                     OR OLD.points_per_event IS DISTINCT FROM NEW.points_per_event)
  EXECUTE FUNCTION hearth_community_points();
--> statement-breakpoint
-- Backfill: every author's countable likes and every learner's completed lessons, per community,
-- with points and level computed here; levels reached before today are not announced.
WITH likes AS (
  SELECT p.community_id, p.author_id AS user_id, count(*)::int AS n
    FROM post_likes l JOIN posts p ON p.id = l.post_id
   WHERE p.deleted_at IS NULL AND l.user_id <> p.author_id
     AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p.community_id AND b.user_id = l.user_id)
   GROUP BY 1, 2
  UNION ALL
  SELECT p.community_id, c.author_id, count(*)::int
    FROM comment_likes l JOIN comments c ON c.id = l.comment_id JOIN posts p ON p.id = c.post_id
   WHERE p.deleted_at IS NULL AND c.deleted_at IS NULL AND l.user_id <> c.author_id
     AND NOT EXISTS (SELECT 1 FROM community_bans b WHERE b.community_id = p.community_id AND b.user_id = l.user_id)
   GROUP BY 1, 2
), sources AS (
  SELECT community_id, user_id, n AS like_points, 0 AS lessons FROM likes
  UNION ALL
  SELECT co.community_id, lc.user_id, 0, count(*)::int
    FROM lesson_completions lc JOIN courses co ON co.id = lc.course_id
   GROUP BY 1, 2
), totals AS (
  SELECT community_id, user_id, sum(like_points)::int AS like_points, sum(lessons)::int AS lessons
    FROM sources GROUP BY 1, 2
)
INSERT INTO member_points (community_id, user_id, like_points, lessons_completed, points, level, top_level)
SELECT t.community_id, t.user_id, t.like_points, t.lessons, v.points,
       hearth_level_of(v.points, c.level_thresholds), hearth_level_of(v.points, c.level_thresholds)
  FROM totals t
  JOIN communities c ON c.id = t.community_id
  JOIN "user" u ON u.id = t.user_id
 CROSS JOIN LATERAL (SELECT t.like_points + t.lessons * c.points_per_lesson AS points) v
ON CONFLICT (community_id, user_id) DO NOTHING;
--> statement-breakpoint
CREATE TRIGGER member_points_level BEFORE INSERT OR UPDATE OF like_points, lessons_completed, events_attended ON member_points
  FOR EACH ROW EXECUTE FUNCTION hearth_member_points_level();
