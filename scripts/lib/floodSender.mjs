// Workspace A's flood for scripts/bench-flood.mjs (run in a process of its own): BENCH_FLOOD_SENDERS
// clients posting batches of notifications/progress back to back, each batch as large as the
// proxy's body limit allows (BENCH_FLOOD_BATCH_BYTES), optionally paced to a byte rate, plus
// BENCH_FLOOD_HANGING tools/call requests held open until the flood ends.
import { performance } from 'node:perf_hooks';
import { requireSource as require } from './tsSources.mjs';

const { Agent } = require('undici');

const SENDERS = Number(process.env.BENCH_FLOOD_SENDERS ?? 2);
// The proxy's body limit is 4 MiB (TOOLSCOPE_PROXY_BODY_LIMIT_BYTES); 413 above it.
const BATCH_BYTES = Number(process.env.BENCH_FLOOD_BATCH_BYTES ?? 4 * 1_048_576 - 4096);
const ONE_TOKEN = process.env.BENCH_FLOOD_TOKENS === 'one';
const HANGING = Number(process.env.BENCH_FLOOD_HANGING ?? 0);
const BATCH_DIGITS = 8;

const agent = new Agent({ keepAliveTimeout: 120_000 });

/**
 * One sender's batch, built once: a JSON array of progress notifications just under BATCH_BYTES.
 * Each token is `s{sender}-{batch number}-{i}` (its own progress stream: nothing to coalesce); the
 * batch number is written in place for every batch, so building a batch costs the flooder little.
 */
function batchTemplate(sender) {
  const parts = [];
  const offsets = [];
  let length = 1;
  for (let i = 0; ; i++) {
    const head = `{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"${ONE_TOKEN ? 'flood' : `s${sender}-`}`;
    const tail = `${ONE_TOKEN ? '' : `-${i}`}","progress":${i},"total":1000000}}`;
    const item = `${i ? ',' : ''}${head}${ONE_TOKEN ? '' : '0'.repeat(BATCH_DIGITS)}${tail}`;
    if (length + item.length + 1 > BATCH_BYTES) break;
    offsets.push(length + (i ? 1 : 0) + head.length);
    parts.push(item);
    length += item.length;
  }
  const buffer = Buffer.from(`[${parts.join('')}]`);
  return {
    messages: parts.length,
    next(batch) {
      if (!ONE_TOKEN) {
        const digits = String(batch % 10 ** BATCH_DIGITS).padStart(BATCH_DIGITS, '0');
        for (const offset of offsets) buffer.write(digits, offset, 'latin1');
      }
      return buffer;
    },
  };
}

const templates = Array.from({ length: SENDERS }, (_, s) => batchTemplate(s));
let batchCounter = 0;

/** Floods `url` for `ms` (paced to `bytesPerSecond` when given): what was sent and answered. */
export async function flood({ url, ms, bytesPerSecond }) {
  const target = new URL(url);
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-03-26',
  };
  const statuses = {};
  let batches = 0;
  let messages = 0;
  let bytes = 0;
  const started = performance.now();
  const deadline = started + ms;

  // Hanging calls: sent once, held until the flood ends (then abandoned by the client).
  const abandon = new AbortController();
  const hangingOutcomes = {};
  const hanging = Array.from({ length: HANGING }, async (_, i) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: `hang-${i}`,
      method: 'tools/call',
      params: { name: 'hang', arguments: {} },
    });
    let outcome;
    try {
      const res = await agent.request({
        origin: target.origin,
        path: target.pathname,
        method: 'POST',
        headers: { ...headers, 'mcp-protocol-version': '2025-06-18' },
        body,
        signal: abandon.signal,
      });
      const text = await res.body.text();
      outcome = `${res.statusCode} ${/"code":(-?\d+)/.exec(text)?.[1] ?? ''}`.trim();
    } catch {
      outcome = 'held until the end';
    }
    hangingOutcomes[outcome] = (hangingOutcomes[outcome] ?? 0) + 1;
  });

  await Promise.all(
    templates.map(async (template) => {
      while (performance.now() < deadline) {
        if (bytesPerSecond) {
          const due = started + ((bytes + BATCH_BYTES) / bytesPerSecond) * 1000;
          const wait = due - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait, deadline - performance.now())));
          if (performance.now() >= deadline) break;
        }
        const body = template.next(batchCounter++);
        bytes += body.length;
        try {
          const res = await agent.request({
            origin: target.origin,
            path: target.pathname,
            method: 'POST',
            headers,
            body,
          });
          await res.body.text();
          statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        } catch (error) {
          statuses[error.code ?? 'error'] = (statuses[error.code ?? 'error'] ?? 0) + 1;
        }
        batches++;
        messages += template.messages;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  abandon.abort();
  await Promise.all(hanging);
  return { batches, messages, bytes, seconds, statuses, hanging: HANGING, hangingOutcomes };
}
