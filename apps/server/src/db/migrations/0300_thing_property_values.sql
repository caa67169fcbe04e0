-- Each value a device reported of its model's properties, over time (the twin keeps only the last):
-- what a trend of a property, or its history, reads. Written with the twin's reported state, in the
-- same transaction; data clean tasks delete it by age with the device's other data.
create table thing_property_values (
  tenant_id uuid not null references tenants(id) on delete cascade,
  things_id uuid not null references things(id) on delete cascade,
  -- `block.identifier`
  property text not null,
  ts timestamptz not null,
  value jsonb not null
);
create index thing_property_values_idx on thing_property_values (things_id, property, ts desc);
