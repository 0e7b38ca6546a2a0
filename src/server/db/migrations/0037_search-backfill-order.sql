-- The search backfill (migration 0025) indexes the rows of a kind in creation order instead of id
-- order. Ids are random uuids, so in id order the newest documents of a community landed on as many
-- table pages as documents, and the search's walk of a community's newest documents read a page per
-- document; documents the triggers write are in creation order, and now backfilled ones are too
-- (docs/performance.md, "Search: where the time goes": a copy clustered that way answered the
-- benchmark's queries 5-40% faster).
--
-- Neither posts nor comments have an index on their time alone, so the first batch of a kind writes
-- its work list: every row not yet passed by an earlier id-order run (search_backfill.last_id),
-- numbered in (created_at, id) order, one statement. Each batch then takes the next `batch` entries
-- of the list by number and indexes them in that order; the list goes when the kind is done.
CREATE TABLE search_backfill_queue (
  kind text NOT NULL,
  seq bigint NOT NULL,
  id text NOT NULL,
  PRIMARY KEY (kind, seq)
);
--> statement-breakpoint
-- Where a kind's list stands (the last number indexed); NULL: its list is not written yet.
ALTER TABLE search_backfill ADD COLUMN next_seq bigint;
--> statement-breakpoint
-- Indexes up to `batch` rows of one kind written before the triggers, in creation order from where
-- the last batch stopped; returns how many it read (0: that kind is done). Each call is its own short
-- transaction when called from outside a migration, so writers never wait on a long backfill; a row
-- a trigger indexed meanwhile keeps the trigger's (newer) document, and a row deleted since the list
-- was written is skipped.
CREATE OR REPLACE FUNCTION hearth_search_backfill(k text, batch integer) RETURNS integer AS $$
DECLARE
  after text;
  pos bigint;
  n integer := 0;
  last bigint;
  tbl text;
  idcol text;
BEGIN
  SELECT last_id, next_seq INTO after, pos FROM search_backfill WHERE kind = k AND NOT done FOR UPDATE SKIP LOCKED;
  IF NOT FOUND THEN RETURN 0; END IF;
  IF pos IS NULL THEN
    tbl := CASE k WHEN 'post' THEN 'posts' WHEN 'comment' THEN 'comments' WHEN 'course' THEN 'courses'
                  WHEN 'lesson' THEN 'course_lessons' WHEN 'member' THEN 'user_profiles' END;
    IF tbl IS NULL THEN RETURN 0; END IF;
    idcol := CASE k WHEN 'member' THEN 'user_id' ELSE 'id' END;
    DELETE FROM search_backfill_queue WHERE kind = k;
    EXECUTE format(
      'INSERT INTO search_backfill_queue (kind, seq, id)
         SELECT $1, row_number() OVER (ORDER BY created_at, %1$I), %1$I::text FROM %2$I WHERE %1$I::text > $2
          ORDER BY created_at, %1$I',
      idcol, tbl)
      USING k, coalesce(after, '');
    pos := 0;
  END IF;
  IF k = 'post' THEN
    WITH w AS (SELECT seq, id FROM search_backfill_queue WHERE kind = k AND seq > pos ORDER BY seq LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, post_id, created_at, tsv)
      SELECT 'post', p.id::text, p.id, p.community_id, p.id, p.created_at,
             hearth_search_tsv(hearth_search_post_text(p.content, p.poll_data, p.link_preview), hearth_search_lang(p.author_id))
        FROM w JOIN posts p ON p.id = w.id::uuid WHERE p.deleted_at IS NULL ORDER BY w.seq ON CONFLICT DO NOTHING)
    SELECT count(*), max(seq) INTO n, last FROM w;
  ELSIF k = 'comment' THEN
    WITH w AS (SELECT seq, id FROM search_backfill_queue WHERE kind = k AND seq > pos ORDER BY seq LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, post_id, created_at, tsv)
      SELECT 'comment', s.id::text, s.id, p.community_id, s.post_id, s.created_at, hearth_search_tsv(s.content, hearth_search_lang(s.author_id))
        FROM w JOIN comments s ON s.id = w.id::uuid JOIN posts p ON p.id = s.post_id
       WHERE s.deleted_at IS NULL ORDER BY w.seq ON CONFLICT DO NOTHING)
    SELECT count(*), max(seq) INTO n, last FROM w;
  ELSIF k = 'course' THEN
    WITH w AS (SELECT seq, id FROM search_backfill_queue WHERE kind = k AND seq > pos ORDER BY seq LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, course_id, created_at, tsv)
      SELECT 'course', s.id::text, s.id, s.community_id, s.id, s.created_at,
             setweight(hearth_search_tsv(s.title, hearth_search_lang(s.created_by)), 'A')
             || hearth_search_tsv(s.description, hearth_search_lang(s.created_by))
        FROM w JOIN courses s ON s.id = w.id::uuid ORDER BY w.seq ON CONFLICT DO NOTHING)
    SELECT count(*), max(seq) INTO n, last FROM w;
  ELSIF k = 'lesson' THEN
    WITH w AS (SELECT seq, id FROM search_backfill_queue WHERE kind = k AND seq > pos ORDER BY seq LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, item_id, community_id, course_id, created_at, tsv, title_tsv)
      SELECT 'lesson', s.id::text, s.id, co.community_id, co.id, s.created_at,
             setweight(hearth_search_tsv(s.title, hearth_search_lang(co.created_by)), 'A')
             || hearth_search_tsv(s.description, hearth_search_lang(co.created_by)),
             setweight(hearth_search_tsv(s.title, hearth_search_lang(co.created_by)), 'A')
        FROM w JOIN course_lessons s ON s.id = w.id::uuid JOIN course_modules m ON m.id = s.module_id
        JOIN courses co ON co.id = m.course_id
       ORDER BY w.seq ON CONFLICT DO NOTHING)
    SELECT count(*), max(seq) INTO n, last FROM w;
  ELSIF k = 'member' THEN
    WITH w AS (SELECT seq, id FROM search_backfill_queue WHERE kind = k AND seq > pos ORDER BY seq LIMIT batch),
    ins AS (INSERT INTO search_documents (kind, doc_id, created_at, tsv)
      SELECT 'member', s.user_id, s.created_at,
             setweight(hearth_search_tsv(s.full_name || ' ' || s.username, s.language), 'A') || hearth_search_tsv(s.headline, s.language)
        FROM w JOIN user_profiles s ON s.user_id = w.id ORDER BY w.seq ON CONFLICT DO NOTHING)
    SELECT count(*), max(seq) INTO n, last FROM w;
  END IF;
  IF n < batch THEN
    UPDATE search_backfill SET done = true, next_seq = NULL WHERE kind = k;
    DELETE FROM search_backfill_queue WHERE kind = k;
  ELSE
    UPDATE search_backfill SET next_seq = last WHERE kind = k;
  END IF;
  RETURN n;
END $$ LANGUAGE plpgsql;
