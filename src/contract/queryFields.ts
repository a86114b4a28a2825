import { z } from 'zod';

// Field types several query schemas share, with the messages a client sees when one is wrong.
export const isoTime = z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time' });
export const uuid = z.uuid({ error: 'Expected a UUID' });

/** A page size: 1 to `max`, `fallback` when absent. */
export const pageLimit = (max: number, fallback: number) =>
  z.coerce
    .number({ error: 'Expected a number' })
    .int('Expected an integer')
    .min(1, 'Must be at least 1')
    .max(max, `Must be at most ${max}`)
    .default(fallback);
