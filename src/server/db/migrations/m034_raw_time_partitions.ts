// Issue 33 item 2: messages and tool_calls become tables partitioned by time (weekly ranges of
// created_at / started_at; docs/scaling.md "Time partitions"), so expiry drops whole partitions.
// Nothing is copied: each existing table is renamed and attached, in place, as the partition of
// everything before the cutover (the Monday after the migration runs), with its indexes — only its
// primary key is rebuilt to hold the partition key, and the attach reads it once to check the
// range (its own foreign key gives way to the parent's). The weekly partitions from the cutover on are made by the app (data/retention/partitions.ts)
// before it records; a row no partition takes lands in the default partition rather than failing.
// The recorder's upsert of a call matches on (id, started_at): a call's start never changes.

const CUTOVER = `((date_trunc('week', now() at time zone 'UTC') + interval '7 days') at time zone 'UTC')`;

export const m034_raw_time_partitions = `
alter table messages rename to messages_before_partitions;
alter index messages_pkey rename to messages_before_partitions_pkey;
alter index messages_session_seq rename to messages_before_partitions_session_seq;
alter index messages_workspace_created rename to messages_before_partitions_workspace_created;
alter index messages_prompt_resource_search rename to messages_before_partitions_prompt_search;
alter table messages_before_partitions drop constraint messages_session_id_fkey;
alter table messages_before_partitions alter column id drop default;
alter table messages_before_partitions drop constraint messages_before_partitions_pkey;
alter table messages_before_partitions add constraint messages_before_partitions_pkey primary key (id, created_at);
create table messages (
  id bigint not null default nextval('messages_id_seq'),
  workspace_id uuid not null,
  session_id uuid not null references sessions(id) on delete cascade,
  seq integer not null,
  direction text not null,
  kind text not null,
  method text,
  jsonrpc_id text,
  payload jsonb,
  size_bytes integer not null,
  truncated boolean not null default false,
  created_at timestamptz not null,
  progress_count integer,
  primary key (id, created_at)
) partition by range (created_at);
alter sequence messages_id_seq owned by messages.id;
create index messages_session_seq on messages (session_id, seq);
create index messages_workspace_created on messages (workspace_id, created_at);
create index messages_prompt_resource_search on messages using gin (to_tsvector('simple'::regconfig, regexp_replace(lower("left"(COALESCE(payload #>> '{params}'::text[], payload #>> '{}'::text[], ''::text), 100000)), '[^[:alnum:]]+'::text, ' '::text, 'g'::text))) where method = any (array['prompts/get'::text, 'resources/read'::text]);
alter table messages attach partition messages_before_partitions for values from (minvalue) to (${CUTOVER});
create table messages_default partition of messages default;

alter table tool_calls rename to tool_calls_before_partitions;
alter index tool_calls_pkey rename to tool_calls_before_partitions_pkey;
alter index tool_calls_session rename to tool_calls_before_partitions_session;
alter index tool_calls_workspace_started rename to tool_calls_before_partitions_workspace_started;
alter index tool_calls_search_v2 rename to tool_calls_before_partitions_search_v2;
alter table tool_calls_before_partitions drop constraint tool_calls_session_id_fkey;
alter table tool_calls_before_partitions drop constraint tool_calls_before_partitions_pkey;
alter table tool_calls_before_partitions add constraint tool_calls_before_partitions_pkey primary key (id, started_at);
create table tool_calls (
  id uuid not null default gen_random_uuid(),
  workspace_id uuid not null,
  server_id uuid not null,
  session_id uuid not null references sessions(id) on delete cascade,
  jsonrpc_id text,
  tool_name text not null,
  arguments jsonb,
  result jsonb,
  error_message text,
  status text not null,
  started_at timestamptz not null,
  ended_at timestamptz,
  duration_ms integer,
  request_bytes integer not null default 0,
  response_bytes integer not null default 0,
  tokens_estimate integer not null default 0,
  meta jsonb,
  traceparent text,
  request_seq integer,
  request_payload text,
  request_truncated boolean not null default false,
  response_seq integer,
  response_kind text,
  response_payload text,
  response_truncated boolean not null default false,
  argument_tokens integer,
  result_tokens integer,
  error_class text,
  platform_key_id uuid,
  primary key (id, started_at)
) partition by range (started_at);
create index tool_calls_session on tool_calls (session_id, started_at);
create index tool_calls_workspace_started on tool_calls (workspace_id, started_at desc);
create index tool_calls_search_v2 on tool_calls using gin (to_tsvector('simple'::regconfig, regexp_replace(lower("left"((tool_name || ' '::text) || COALESCE(arguments::text, CASE WHEN request_truncated THEN request_payload ELSE (request_payload::jsonb #> '{params,arguments}'::text[])::text END, ''::text), 100000)), '[^[:alnum:]]+'::text, ' '::text, 'g'::text)));
alter table tool_calls attach partition tool_calls_before_partitions for values from (minvalue) to (${CUTOVER});
create table tool_calls_default partition of tool_calls default;
`;
