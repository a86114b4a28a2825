import { callArgumentsTextSql } from '../../recording/storedCallSql';
import {
  likePattern,
  messageSearchDocument,
  messageSearchText,
  SEARCHED_MESSAGE_METHODS,
  toolCallSearchDocument,
  toSearchQuery,
} from './sessionSearch';
import type { SqlConditions } from './sqlConditions';

// The sessions list's search box: a session matches when one of its tool calls (tool name and
// arguments) or one of its prompt or resource requests (prompts/get, resources/read params)
// holds the typed words (docs/sessions.md "Sessions list").
//
// `offset 0` keeps each set of matching rows a separate step (one index lookup, hashed), so the
// planner cannot instead walk every session newest-first probing the calls of each: that plan,
// picked when it underestimates how rare a word is, took 5 s at 100k sessions (docs/benchmarks.md).
export function addTextSearch(where: SqlConditions, workspaceId: string, text: string): void {
  const query = toSearchQuery(text);
  if (query) {
    where.add(
      (ws, q) =>
        `(s.id in (select tc.session_id from tool_calls tc where tc.workspace_id = ${ws} and ${toolCallSearchDocument('tc')} @@ to_tsquery('simple', ${q}) offset 0)
          or s.id in (select m.session_id from messages m where m.method in ${SEARCHED_MESSAGE_METHODS} and ${messageSearchDocument('m')} @@ to_tsquery('simple', ${q}) and m.workspace_id = ${ws} offset 0))`,
      workspaceId,
      query,
    );
    return;
  }
  // Only punctuation was typed: no words to index, so match it as a substring (slower, rare).
  where.add(
    (ws, pattern) =>
      `(s.id in (select tc.session_id from tool_calls tc where tc.workspace_id = ${ws} and (tc.tool_name || ' ' || ${callArgumentsTextSql('tc')}) like ${pattern} offset 0)
        or s.id in (select m.session_id from messages m where m.method in ${SEARCHED_MESSAGE_METHODS} and ${messageSearchText('m')} like ${pattern} and m.workspace_id = ${ws} offset 0))`,
    workspaceId,
    likePattern(text),
  );
}
