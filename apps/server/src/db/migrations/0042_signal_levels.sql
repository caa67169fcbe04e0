-- Roll-ups at 10 s and 10 min beside 1 s and 1 min: every curve then reads fewer than ten cells per
-- pixel whatever its range (a month at 2000 px reads 10-minute cells, not 43200 one-minute cells).
alter table signal_rollups drop constraint signal_rollups_level_check;
alter table signal_rollups add constraint signal_rollups_level_check check (level in (1, 10, 60, 600));
