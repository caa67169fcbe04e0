-- A console version's files as uploaded (path, bytes, SHA-256), shown to the system manager who
-- releases it (docs/decisions/0206-console-release-by-a-system-manager.md); null for versions
-- uploaded before.
alter table web_versions add column manifest jsonb;
