-- Reports (issue 22, docs/decisions/0020-reports.md): whether a person already reported an item, in
-- any of its cases (open or decided), is asked on every report; this finds an item's cases at once.
CREATE INDEX IF NOT EXISTS "report_cases_item_idx" ON "report_cases" USING btree ("community_id", "target", "target_id");
