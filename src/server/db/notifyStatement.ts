import { binaryArray } from './binaryArrays';

// The one statement both engines NOTIFY with (Database.notify).

/** A function scan yields the array's elements in order, so the NOTIFYs are sent in that order. */
export const NOTIFY_SQL = 'select pg_notify($1, payload) from unnest($2::text[]) as payload';

/**
 * NOTIFY_SQL's parameters. The payloads (JSON, up to 8 KB each, quotes throughout) go as a binary
 * array: as a JavaScript array, node-postgres would escape every quote into an array literal and
 * the server parse it back (binaryArrays.ts).
 */
export const notifyParams = (channel: string, payloads: readonly string[]): unknown[] => [
  channel,
  binaryArray('text', payloads),
];
