-- Search (issue 21, docs/decisions/0018-search.md): one document per searchable item, kept by
-- triggers in the same transaction as the item (findable at commit, gone at once when deleted), with
-- one tsvector holding the stems of the unaccented text in the author's profile language, its 'simple'
-- tokens (prefix matching, phrases) and CJK bigrams (Japanese and Chinese have no spaces). Who may
-- read a document is decided at query time by joining its source row (src/server/features/search).
CREATE EXTENSION IF NOT EXISTS unaccent;
--> statement-breakpoint
CREATE TABLE search_documents (
  kind text NOT NULL,
  -- The post, comment, lesson or course id, or the member's user id.
  doc_id text NOT NULL,
  -- The same id as a uuid (null for a member, whose user id is text).
  item_id uuid,
  community_id uuid,
  -- A comment's post; a lesson's course.
  post_id uuid,
  course_id uuid,
  created_at timestamptz NOT NULL,
  tsv tsvector NOT NULL,
  -- A lesson's title alone: a locked lesson is found by its title only.
  title_tsv tsvector,
  PRIMARY KEY (kind, doc_id)
);
--> statement-breakpoint
-- One GIN index per kind (partial): a kind's search never reads the others' matches. fastupdate is
-- off: with it, new entries wait in a pending list (up to 4 MB) that every search reads through,
-- which made a rare word take tens of milliseconds; without it each write updates the index at once.
CREATE INDEX search_documents_post_tsv_idx ON search_documents USING gin (tsv) WITH (fastupdate = off) WHERE kind = 'post';
--> statement-breakpoint
CREATE INDEX search_documents_comment_tsv_idx ON search_documents USING gin (tsv) WITH (fastupdate = off) WHERE kind = 'comment';
--> statement-breakpoint
CREATE INDEX search_documents_other_tsv_idx ON search_documents USING gin (tsv) WITH (fastupdate = off) WHERE kind IN ('lesson', 'course', 'member');
--> statement-breakpoint
CREATE INDEX search_documents_community_idx ON search_documents (community_id, kind, created_at DESC, doc_id DESC);
--> statement-breakpoint
-- Rows written before the triggers existed, indexed in batches by hearth_search_backfill.
CREATE TABLE search_backfill (
  kind text PRIMARY KEY,
  last_id text NOT NULL DEFAULT '',
  done boolean NOT NULL DEFAULT false
);
--> statement-breakpoint
-- CJK bigrams of every run of two or more Han, kana or Hangul characters.
CREATE OR REPLACE FUNCTION hearth_search_cjk(t text) RETURNS tsvector AS $$
  SELECT coalesce(array_to_tsvector(array_agg(DISTINCT substr(r.s, i, 2))), ''::tsvector)
    FROM regexp_matches(t, '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]{2,}', 'g') AS m(a)
    CROSS JOIN LATERAL (SELECT m.a[1] AS s) r
    CROSS JOIN LATERAL generate_series(1, length(r.s) - 1) AS i
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
-- The stemming configuration of a profile language (SEARCH_LANGUAGES): Japanese and Chinese have
-- none (their bigrams match), anything else is stemmed as English.
CREATE OR REPLACE FUNCTION hearth_search_config(lang text) RETURNS regconfig AS $$
  SELECT (CASE lang WHEN 'pt' THEN 'portuguese' WHEN 'es' THEN 'spanish' WHEN 'fr' THEN 'french'
    WHEN 'de' THEN 'german' WHEN 'it' THEN 'italian' WHEN 'ja' THEN 'simple' WHEN 'zh' THEN 'simple'
    ELSE 'english' END)::regconfig
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
-- The document vector of a text written by someone whose profile language is `lang`: the stems of
-- that language's configuration and the 'simple' tokens of the lower-cased unaccented text, and its
-- CJK bigrams. One stemming configuration, not six: each costs about as much as the rest of a post's
-- write (docs/decisions/0018-search.md). hearth_search_word builds the query side of each token, with
-- the stems of all six, so a query in any language meets the author's.
CREATE OR REPLACE FUNCTION hearth_search_tsv(t text, lang text) RETURNS tsvector AS $$
DECLARE
  u text := lower(public.unaccent('public.unaccent', coalesce(t, '')));
  cfg regconfig := hearth_search_config(lang);
  v tsvector;
BEGIN
  IF u = '' THEN RETURN ''::tsvector; END IF;
  v := to_tsvector('simple', u);
  IF cfg <> 'simple'::regconfig THEN v := to_tsvector(cfg, u) || v; END IF;
  IF u ~ '[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]' THEN
    v := v || hearth_search_cjk(u);
  END IF;
  RETURN v;
END $$ LANGUAGE plpgsql STABLE PARALLEL SAFE;
--> statement-breakpoint
-- A user's profile language ('en' when they have no profile).
CREATE OR REPLACE FUNCTION hearth_search_lang(uid text) RETURNS text AS $$
  SELECT coalesce((SELECT language FROM user_profiles WHERE user_id = uid), 'en')
$$ LANGUAGE sql STABLE PARALLEL SAFE;
--> statement-breakpoint
-- One query token (letters and digits only, extracted by the server): any configuration's stem of it,
-- or its 'simple' token (as a prefix while typing). Never parses operators: the token is quoted.
CREATE OR REPLACE FUNCTION hearth_search_word(tok text, prefix boolean) RETURNS tsquery AS $$
DECLARE
  u text := regexp_replace(lower(public.unaccent('public.unaccent', coalesce(tok, ''))), '[^[:alnum:]]', '', 'g');
  q tsquery;
BEGIN
  IF u = '' THEN RETURN ''::tsquery; END IF;
  q := to_tsquery('simple', '''' || u || '''' || CASE WHEN prefix THEN ':*' ELSE '' END);
  RETURN q || plainto_tsquery('english', u) || plainto_tsquery('portuguese', u) || plainto_tsquery('spanish', u)
    || plainto_tsquery('french', u) || plainto_tsquery('german', u) || plainto_tsquery('italian', u);
END $$ LANGUAGE plpgsql STABLE PARALLEL SAFE;
--> statement-breakpoint
-- The exact 'simple' token (phrases), or a prefix of it.
CREATE OR REPLACE FUNCTION hearth_search_exact(tok text, prefix boolean) RETURNS tsquery AS $$
DECLARE
  u text := regexp_replace(lower(public.unaccent('public.unaccent', coalesce(tok, ''))), '[^[:alnum:]]', '', 'g');
BEGIN
  IF u = '' THEN RETURN ''::tsquery; END IF;
  RETURN to_tsquery('simple', '''' || u || '''' || CASE WHEN prefix THEN ':*' ELSE '' END);
END $$ LANGUAGE plpgsql STABLE PARALLEL SAFE;
--> statement-breakpoint
-- The searchable text of a post: its content, poll options and link preview title.
CREATE OR REPLACE FUNCTION hearth_search_post_text(content text, poll jsonb, link jsonb) RETURNS text AS $$
  SELECT concat_ws(E'\n', content,
    (SELECT string_agg(o->>'text', E'\n') FROM jsonb_array_elements(CASE WHEN jsonb_typeof(poll->'options') = 'array' THEN poll->'options' ELSE '[]' END) o),
    link->>'title')
$$ LANGUAGE sql IMMUTABLE PARALLEL SAFE;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_search_post_doc() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.deleted_at IS NOT NULL THEN
    DELETE FROM search_documents WHERE kind = 'post' AND doc_id = OLD.id::text;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  INSERT INTO search_documents (kind, doc_id, item_id, community_id, post_id, created_at, tsv)
  VALUES ('post', NEW.id::text, NEW.id, NEW.community_id, NEW.id, NEW.created_at,
          hearth_search_tsv(hearth_search_post_text(NEW.content, NEW.poll_data, NEW.link_preview), hearth_search_lang(NEW.author_id)))
  ON CONFLICT (kind, doc_id) DO UPDATE SET community_id = EXCLUDED.community_id, tsv = EXCLUDED.tsv;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER search_posts_insert AFTER INSERT ON posts FOR EACH ROW EXECUTE FUNCTION hearth_search_post_doc();
--> statement-breakpoint
-- Only a change of the searchable text or a deletion re-indexes (not likes, votes or counters).
CREATE TRIGGER search_posts_update AFTER UPDATE ON posts FOR EACH ROW
  WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.link_preview IS DISTINCT FROM NEW.link_preview
        OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.community_id IS DISTINCT FROM NEW.community_id
        OR hearth_search_post_text('', OLD.poll_data, NULL) IS DISTINCT FROM hearth_search_post_text('', NEW.poll_data, NULL))
  EXECUTE FUNCTION hearth_search_post_doc();
--> statement-breakpoint
CREATE TRIGGER search_posts_delete AFTER DELETE ON posts FOR EACH ROW EXECUTE FUNCTION hearth_search_post_doc();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_search_comment_doc() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.deleted_at IS NOT NULL THEN
    DELETE FROM search_documents WHERE kind = 'comment' AND doc_id = OLD.id::text;
    IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
    RETURN NEW;
  END IF;
  INSERT INTO search_documents (kind, doc_id, item_id, community_id, post_id, created_at, tsv)
  SELECT 'comment', NEW.id::text, NEW.id, p.community_id, NEW.post_id, NEW.created_at, hearth_search_tsv(NEW.content, hearth_search_lang(NEW.author_id))
    FROM posts p WHERE p.id = NEW.post_id
  ON CONFLICT (kind, doc_id) DO UPDATE SET tsv = EXCLUDED.tsv;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER search_comments_insert AFTER INSERT ON comments FOR EACH ROW EXECUTE FUNCTION hearth_search_comment_doc();
--> statement-breakpoint
CREATE TRIGGER search_comments_update AFTER UPDATE ON comments FOR EACH ROW
  WHEN (OLD.content IS DISTINCT FROM NEW.content OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION hearth_search_comment_doc();
--> statement-breakpoint
CREATE TRIGGER search_comments_delete AFTER DELETE ON comments FOR EACH ROW EXECUTE FUNCTION hearth_search_comment_doc();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_search_course_doc() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_documents WHERE kind = 'course' AND doc_id = OLD.id::text;
    RETURN OLD;
  END IF;
  INSERT INTO search_documents (kind, doc_id, item_id, community_id, course_id, created_at, tsv)
  VALUES ('course', NEW.id::text, NEW.id, NEW.community_id, NEW.id, NEW.created_at,
          setweight(hearth_search_tsv(NEW.title, hearth_search_lang(NEW.created_by)), 'A')
            || hearth_search_tsv(NEW.description, hearth_search_lang(NEW.created_by)))
  ON CONFLICT (kind, doc_id) DO UPDATE SET tsv = EXCLUDED.tsv;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER search_courses_write AFTER INSERT OR UPDATE OF title, description OR DELETE ON courses
  FOR EACH ROW EXECUTE FUNCTION hearth_search_course_doc();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_search_lesson_doc() RETURNS trigger AS $$
DECLARE
  title_v tsvector;
  author text;
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_documents WHERE kind = 'lesson' AND doc_id = OLD.id::text;
    RETURN OLD;
  END IF;
  SELECT co.created_by INTO author FROM course_modules m JOIN courses co ON co.id = m.course_id WHERE m.id = NEW.module_id;
  title_v := setweight(hearth_search_tsv(NEW.title, hearth_search_lang(author)), 'A');
  INSERT INTO search_documents (kind, doc_id, item_id, community_id, course_id, created_at, tsv, title_tsv)
  SELECT 'lesson', NEW.id::text, NEW.id, co.community_id, co.id, NEW.created_at,
         title_v || hearth_search_tsv(NEW.description, hearth_search_lang(author)), title_v
    FROM course_modules m JOIN courses co ON co.id = m.course_id WHERE m.id = NEW.module_id
  ON CONFLICT (kind, doc_id) DO UPDATE SET course_id = EXCLUDED.course_id, tsv = EXCLUDED.tsv, title_tsv = EXCLUDED.title_tsv;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER search_lessons_write AFTER INSERT OR UPDATE OF title, description, module_id OR DELETE ON course_lessons
  FOR EACH ROW EXECUTE FUNCTION hearth_search_lesson_doc();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION hearth_search_member_doc() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    DELETE FROM search_documents WHERE kind = 'member' AND doc_id = OLD.user_id;
    RETURN OLD;
  END IF;
  INSERT INTO search_documents (kind, doc_id, created_at, tsv, title_tsv)
  VALUES ('member', NEW.user_id, NEW.created_at,
          setweight(hearth_search_tsv(NEW.full_name || ' ' || NEW.username, NEW.language), 'A') || hearth_search_tsv(NEW.headline, NEW.language), NULL)
  ON CONFLICT (kind, doc_id) DO UPDATE SET tsv = EXCLUDED.tsv;
  RETURN NEW;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER search_members_write AFTER INSERT OR UPDATE OF full_name, username, headline, language OR DELETE ON user_profiles
  FOR EACH ROW EXECUTE FUNCTION hearth_search_member_doc();
--> statement-breakpoint
-- Indexes up to `batch` rows of one kind written before the triggers, in id order from where the
-- last batch stopped; returns how many it read (0: that kind is done). Each call is its own short
-- transaction when called from outside a migration, so writers never wait on a long backfill; a row
-- a trigger indexed meanwhile keeps the trigger's (newer) document.
CREATE OR REPLACE FUNCTION hearth_search_backfill(k text, batch integer) RETURNS integer AS $$
DECLARE
  after text;
  n integer := 0;
  last text;
BEGIN
  SELECT last_id INTO after FROM search_backfill WHERE kind = k AND NOT done FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN RETURN 0; END IF;
  IF k = 'post' THEN
    WITH src AS (SELECT * FROM posts WHERE id > coalesce(nullif(after, ''), '00000000-0000-0000-0000-000000000000')::uuid ORDER BY id LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, post_id, created_at, tsv)
      SELECT 'post', id::text, id, community_id, id, created_at, hearth_search_tsv(hearth_search_post_text(content, poll_data, link_preview), hearth_search_lang(author_id))
        FROM src WHERE deleted_at IS NULL ON CONFLICT DO NOTHING)
    SELECT count(*), (array_agg(id::text ORDER BY id DESC))[1] INTO n, last FROM src;
  ELSIF k = 'comment' THEN
    WITH src AS (SELECT * FROM comments WHERE id > coalesce(nullif(after, ''), '00000000-0000-0000-0000-000000000000')::uuid ORDER BY id LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, post_id, created_at, tsv)
      SELECT 'comment', s.id::text, s.id, p.community_id, s.post_id, s.created_at, hearth_search_tsv(s.content, hearth_search_lang(s.author_id))
        FROM src s JOIN posts p ON p.id = s.post_id WHERE s.deleted_at IS NULL ON CONFLICT DO NOTHING)
    SELECT count(*), (array_agg(id::text ORDER BY id DESC))[1] INTO n, last FROM src;
  ELSIF k = 'course' THEN
    WITH src AS (SELECT * FROM courses WHERE id > coalesce(nullif(after, ''), '00000000-0000-0000-0000-000000000000')::uuid ORDER BY id LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, course_id, created_at, tsv)
      SELECT 'course', id::text, id, community_id, id, created_at,
             setweight(hearth_search_tsv(title, hearth_search_lang(created_by)), 'A')
             || hearth_search_tsv(description, hearth_search_lang(created_by))
        FROM src ON CONFLICT DO NOTHING)
    SELECT count(*), (array_agg(id::text ORDER BY id DESC))[1] INTO n, last FROM src;
  ELSIF k = 'lesson' THEN
    WITH src AS (SELECT * FROM course_lessons WHERE id > coalesce(nullif(after, ''), '00000000-0000-0000-0000-000000000000')::uuid ORDER BY id LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, course_id, created_at, tsv, title_tsv)
      SELECT 'lesson', s.id::text, s.id, co.community_id, co.id, s.created_at,
             setweight(hearth_search_tsv(s.title, hearth_search_lang(co.created_by)), 'A')
             || hearth_search_tsv(s.description, hearth_search_lang(co.created_by)),
             setweight(hearth_search_tsv(s.title, hearth_search_lang(co.created_by)), 'A')
        FROM src s JOIN course_modules m ON m.id = s.module_id JOIN courses co ON co.id = m.course_id
      ON CONFLICT DO NOTHING)
    SELECT count(*), (array_agg(id::text ORDER BY id DESC))[1] INTO n, last FROM src;
  ELSIF k = 'member' THEN
    WITH src AS (SELECT * FROM user_profiles WHERE user_id > after ORDER BY user_id LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, created_at, tsv)
      SELECT 'member', user_id, created_at,
             setweight(hearth_search_tsv(full_name || ' ' || username, language), 'A') || hearth_search_tsv(headline, language)
        FROM src ON CONFLICT DO NOTHING)
    SELECT count(*), max(user_id) INTO n, last FROM src;
  END IF;
  IF n < batch THEN
    UPDATE search_backfill SET done = true, last_id = coalesce(last, after) WHERE kind = k;
  ELSE
    UPDATE search_backfill SET last_id = last WHERE kind = k;
  END IF;
  RETURN n;
END $$ LANGUAGE plpgsql;
--> statement-breakpoint
INSERT INTO search_backfill (kind) VALUES ('post'), ('comment'), ('course'), ('lesson'), ('member');
--> statement-breakpoint
-- A small database (the demo data, a fresh install) is indexed here, inside the migration; a large one
-- (over 200,000 posts and comments) is left to the server, which calls hearth_search_backfill in
-- batches of 2,000 in their own transactions after start-up (src/server/features/search/backfill.ts).
DO $$
DECLARE k text;
BEGIN
  IF (SELECT count(*) FROM (SELECT 1 FROM posts UNION ALL SELECT 1 FROM comments LIMIT 200000) x) < 200000 THEN
    FOREACH k IN ARRAY ARRAY['post', 'comment', 'course', 'lesson', 'member'] LOOP
      PERFORM hearth_search_backfill(k, 1000000000);
    END LOOP;
  END IF;
END $$;
