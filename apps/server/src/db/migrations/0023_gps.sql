-- GPS fixes sent by devices on lh/v1/{id}/up/gps (track screens come later). 
create table gps_fixes (
  tenant_id uuid not null,
  things_id uuid not null,
  ts bigint not null,          -- ms since the Unix epoch
  lat double precision not null,
  lon double precision not null,
  alt real,
  speed real,
  heading real,
  sats smallint
);
create index gps_fixes_things_idx on gps_fixes (things_id, ts);
