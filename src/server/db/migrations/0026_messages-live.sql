-- Filled in by its feature (issue 21 or 22); until then a no-op.
SELECT 1;
