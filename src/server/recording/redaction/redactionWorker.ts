import { parentPort } from 'node:worker_threads';
import type { JsonRpcMessage } from '../../proxy/jsonRpc';
import { compileRules, type CompiledRules } from './compiledRules';
import { Redactor } from './redactor';
import type { ThreadAnswer, ThreadJob } from './redactionThread';

// The redaction thread's own code (started by redactionThread.ts): the same Redactor as on the
// recorder's thread, run on a large message so that the proxy's event loop does not wait for it.
// Each job carries its workspace's settings and hash key; the rules compiled from them are kept,
// so a workspace's next large message does not compile them again.

/** Compiled rules by their settings' JSON: a few workspaces send large messages at a time. */
const compiled = new Map<string, CompiledRules>();
const MAX_COMPILED = 32;

function rulesFor(job: ThreadJob): CompiledRules {
  const key = JSON.stringify(job.settings);
  let rules = compiled.get(key);
  if (!rules) {
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
    rules = compileRules(job.settings);
  }
  // Most recently used last: the first key is the one to evict.
  compiled.delete(key);
  compiled.set(key, rules);
  return rules;
}

function redact(job: ThreadJob): ThreadAnswer {
  const message = job.message ?? (JSON.parse(job.text ?? 'null') as JsonRpcMessage);
  const redactor = new Redactor(rulesFor(job), Buffer.from(job.hashKey));
  const redacted = redactor.redactMessage(message, job.tool);
  // Unchanged: the recorder keeps its own message and exact text; nothing travels back.
  if (redacted === message) return { id: job.id, changed: false };
  return { id: job.id, changed: true, message: redacted, text: JSON.stringify(redacted) };
}

parentPort?.on('message', (job: ThreadJob) => {
  let answer: ThreadAnswer;
  try {
    answer = redact(job);
  } catch (error) {
    // The recorder's thread redacts it itself (and fails closed there if it fails again).
    answer = { id: job.id, failed: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(answer);
});
