-- Search (issue 21, docs/decisions/0018-search.md): a search first walks the newest documents of a kind
-- in its scope. A community's search walks search_documents_community_idx; the search across
-- communities (and members, whose documents have no community) walks this one.
CREATE INDEX search_documents_newest_idx ON search_documents (kind, created_at DESC, doc_id DESC);
