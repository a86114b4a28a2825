import { z } from 'zod';

// The shapes of environment values (config.ts): an unset or empty variable is the default.

/** A yes/no variable: 1, true, yes or on (any case) is yes. */
export const bool = (fallback: boolean) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['1', 'true', 'yes', 'on'].includes(v.toLowerCase())));

/** A whole number of at least `min`. */
export const int = (fallback: number, min = 0) =>
  z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : Number(v)))
    .pipe(z.number().int().min(min));
