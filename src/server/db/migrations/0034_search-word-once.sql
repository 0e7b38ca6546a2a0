-- Search (issue 21): a query word's tsquery names each lexeme once. The six languages mostly stem a
-- word alike ('bread' six times, beside the simple 'bread':*), and a search evaluates the query on
-- every document it walks, so repeats cost on each one. A stem equal to the simple word is left out
-- too: the word (or its prefix) already matches it.
CREATE OR REPLACE FUNCTION hearth_search_word(tok text, prefix boolean) RETURNS tsquery AS $$
DECLARE
  u text := regexp_replace(lower(public.unaccent('public.unaccent', coalesce(tok, ''))), '[^[:alnum:]]', '', 'g');
  q tsquery;
  stem tsquery;
  seen text[];
  cfg regconfig;
BEGIN
  IF u = '' THEN RETURN ''::tsquery; END IF;
  q := to_tsquery('simple', '''' || u || '''' || CASE WHEN prefix THEN ':*' ELSE '' END);
  seen := ARRAY[to_tsquery('simple', '''' || u || '''')::text];
  FOREACH cfg IN ARRAY ARRAY['english', 'portuguese', 'spanish', 'french', 'german', 'italian']::regconfig[] LOOP
    stem := plainto_tsquery(cfg, u);
    IF stem::text <> '' AND NOT stem::text = ANY (seen) THEN
      q := q || stem;
      seen := seen || stem::text;
    END IF;
  END LOOP;
  RETURN q;
END $$ LANGUAGE plpgsql STABLE PARALLEL SAFE;
