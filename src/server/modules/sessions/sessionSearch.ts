import { callArgumentsTextSql } from '../../recording/storedCallSql';

// Text search over the tool names and arguments of a session's calls. Both the indexed document
// and the query are cut into words at every non-letter/digit, so "read_file", "/etc/passwd" and
// "user@example.com" are searchable by any of their parts. Every part of every typed word must
// appear as the prefix of a word of the calls' text (AND). Parts are not tied to their order
// (a phrase operator would make PostgreSQL re-read every candidate row, which is what made
// searches slow at 100k sessions); the GIN index of migration 007 holds exactly this document.

/** SQL of the indexed document for the tool_calls row aliased `alias`. Keep in step with m007. */
export function toolCallSearchDocument(alias: string): string {
  return `to_tsvector('simple', regexp_replace(lower(left(${alias}.tool_name || ' ' || ${callArgumentsTextSql(alias)}, 100000)), '[^[:alnum:]]+', ' ', 'g'))`;
}

const MAX_TERMS = 16;

/**
 * The tsquery text (for `to_tsquery('simple', …)`) of what a user typed, or null when it holds no
 * letters or digits at all (the caller then falls back to a plain substring match).
 */
export function toSearchQuery(text: string): string | null {
  const terms = text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, MAX_TERMS);
  if (terms.length === 0) return null;
  // Parts hold letters and digits only, so quoting them cannot break out of the literal.
  return [...new Set(terms)].map((part) => `'${part}':*`).join(' & ');
}

/** Escapes LIKE wildcards so a typed % or _ matches itself. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The requests whose arguments search finds besides tool calls (they are `messages` rows). */
export const SEARCHED_MESSAGE_METHODS = `('prompts/get', 'resources/read')`;

/**
 * The searchable text of a prompt or resource request (aliased `alias`): its params (a prompt's
 * name and arguments, a resource's URI); a cut payload is stored as a JSON string, read whole.
 * Keep in step with migration 020's index.
 */
export function messageSearchText(alias: string): string {
  return `coalesce(${alias}.payload #>> '{params}', ${alias}.payload #>> '{}', '')`;
}

/** SQL of the indexed document of a prompt or resource request. Keep in step with m020. */
export function messageSearchDocument(alias: string): string {
  return `to_tsvector('simple', regexp_replace(lower(left(${messageSearchText(alias)}, 100000)), '[^[:alnum:]]+', ' ', 'g'))`;
}
