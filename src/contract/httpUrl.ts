import { z } from 'zod';

// A URL field that Toolscope will call out to (integrations, telemetry exporters): http or https,
// at most 2048 characters, optionally without credentials in it. The SSRF policy is the server's.
export function httpUrlField(options: { withoutCredentials?: boolean; message: string }) {
  return z
    .string()
    .trim()
    .max(2048, 'Must be at most 2048 characters')
    .refine((value) => {
      try {
        const url = new URL(value);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
        return !options.withoutCredentials || (!url.username && !url.password);
      } catch {
        return false;
      }
    }, options.message);
}
