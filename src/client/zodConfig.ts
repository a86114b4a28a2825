import { z } from 'zod';

// Zod probes `Function('')` to decide whether it may compile parsers. The Content-Security-Policy
// forbids eval (docs/security.md), so the probe would fail anyway — but it also fires a CSP
// violation report on every page that parses with Zod. Jitless parsing is what the browser gets
// either way; saying so up front keeps the reports for real violations.
z.config({ jitless: true });
