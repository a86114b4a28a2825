// The sessions list's search also finds prompt and resource requests (issue 14 item 11): a GIN
// index over the params of `prompts/get` and `resources/read` messages, partial so it holds only
// those rows. Its expression must stay identical to messageSearchDocument() in
// src/server/modules/sessions/sessionSearch.ts, and its predicate to SEARCHED_MESSAGE_METHODS.
export const m020_session_search_prompts = `
create index messages_prompt_resource_search on messages using gin (
  to_tsvector('simple', regexp_replace(lower(left(coalesce(payload #>> '{params}', payload #>> '{}', ''), 100000)), '[^[:alnum:]]+', ' ', 'g'))
) where method in ('prompts/get', 'resources/read');
`;
