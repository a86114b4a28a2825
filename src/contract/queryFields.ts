import { z } from 'zod';

// Field types several query schemas share, with the messages a client sees when one is wrong.
export const isoTime = z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time' });
export const uuid = z.uuid({ error: 'Expected a UUID' });
