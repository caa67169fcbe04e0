-- Durable state of the embedded MQTT broker: sessions (subscriptions), queued QoS 1 downlinks,
-- retained messages and wills survive a restart.
create table mqtt_subscriptions (
  client_id text not null,
  topic text not null,
  qos smallint not null,
  options jsonb not null default '{}',
  primary key (client_id, topic)
);

create table mqtt_outgoing (
  id bigint generated always as identity primary key,
  client_id text not null,
  broker_id text not null,
  broker_counter bigint not null,
  message_id integer,
  packet jsonb not null,
  payload bytea not null
);
create index mqtt_outgoing_client_idx on mqtt_outgoing (client_id, id);

create table mqtt_retained (
  topic text primary key,
  packet jsonb not null,
  payload bytea not null
);

create table mqtt_wills (
  client_id text primary key,
  packet jsonb not null,
  payload bytea not null
);
