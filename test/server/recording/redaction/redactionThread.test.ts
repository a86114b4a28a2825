import path from 'node:path';
import { EventBus } from '../../../../src/server/events/bus';
import type { JsonRpcMessage } from '../../../../src/server/proxy/jsonRpc';
import { Recorder, type SessionOrigin } from '../../../../src/server/recording/recorder';
import { compileRules, DEFAULT_SETTINGS } from '../../../../src/server/recording/redaction/compiledRules';
import {
  RedactionThread,
  type OffThreadRedaction,
  type Redacted,
} from '../../../../src/server/recording/redaction/redactionThread';
import { Redactor, workspaceHashKey } from '../../../../src/server/recording/redaction/redactor';
import type { TestDatabase } from '../../helpers/testDatabase';
import { openRecordingWorkspace } from '../../helpers/recordingWorkspace';
import { recordedCalls, recordedMessages } from '../../helpers/recordedRows';
import { CORPUS } from '../../helpers/redactionCorpus';

// Large messages are redacted on the redaction thread (redactionThread.ts): the thread's answer is
// what the recorder's own redactor gives, a session's messages are recorded in their order while
// one of them waits for it, and a thread that dies or cannot start costs nothing but the wait —
// its messages are redacted on the recorder's thread, never stored as they came, never lost.
jest.setTimeout(120_000);

const token = CORPUS['github-pat'].positives[0].value;
const filler = (bytes: number) => 'ordinary tool output, nothing secret here. '.repeat(Math.ceil(bytes / 43));

/** The real thread, each answer held until the test releases it. */
class HeldThread implements OffThreadRedaction {
  jobs = 0;
  private release!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  constructor(private readonly thread: OffThreadRedaction) {}
  get minBytes(): number {
    return this.thread.minBytes;
  }
  async redact(redactor: Redactor, message: JsonRpcMessage, text: string | undefined, tool: string | undefined) {
    this.jobs++;
    const answer = await this.thread.redact(redactor, message, text, tool);
    await this.released;
    return answer;
  }
  open(): void {
    this.release();
  }
}

describe('the redaction thread', () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  const threads: RedactionThread[] = [];
  const redactor = new Redactor(compileRules(DEFAULT_SETTINGS), Buffer.alloc(32));

  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('redaction-thread'));
  });
  afterAll(async () => {
    for (const thread of threads) await thread.close();
    await database.drop();
  });

  function thread(...args: ConstructorParameters<typeof RedactionThread>): RedactionThread {
    const started = new RedactionThread(...args);
    threads.push(started);
    return started;
  }

  function recorderWith(offThread: OffThreadRedaction) {
    return new Recorder(database.db, new EventBus(), {
      queueLimit: 1000,
      flushMs: 3_600_000,
      redaction: { forWorkspace: () => redactor, offThread },
    });
  }

  it("answers what the recorder's own redactor gives: hashes, custom patterns, a tool's paths", async () => {
    const settings = {
      rules: [{ id: 'github-pat', enabled: true, hash: true }],
      customPatterns: [{ id: 'ticket', pattern: 'TICKET-[0-9]{6}', hash: false }],
      paths: [{ path: 'arguments.note', tool: 'deploy' }],
      allowlist: [],
    };
    const workspaceRedactor = new Redactor(compileRules(settings), workspaceHashKey('secret', origin.workspaceId));
    const message = {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'deploy', arguments: { text: `${token} TICKET-123456 ${filler(1000)}`, note: 'kept out' } },
    };
    const text = JSON.stringify(message);
    const onThread = thread(0);
    for (const [given, tool] of [
      [text, 'deploy'],
      [undefined, 'deploy'],
      [undefined, 'other'],
    ] as const) {
      const expected = workspaceRedactor.redactMessage(message, tool);
      const answer = await onThread.redact(workspaceRedactor, message, given, tool);
      expect(answer).toEqual({ changed: true, message: expected, text: JSON.stringify(expected) });
    }
    expect(JSON.stringify(workspaceRedactor.redactMessage(message, 'deploy'))).toContain('[REDACTED:github-pat:');
    // Nothing found: nothing travels back, the recorder keeps its message and its exact text.
    const plain = { jsonrpc: '2.0', id: 8, result: { content: [{ type: 'text', text: filler(2000) }] } };
    expect(await onThread.redact(workspaceRedactor, plain, JSON.stringify(plain), undefined)).toEqual({
      changed: false,
    });
  });

  it("records a session's messages in their order while a large one waits for the thread", async () => {
    const held = new HeldThread(thread(4096));
    const recorder = recorderWith(held);
    const session = recorder.startSession(origin, { transport: 'streamable-http' });
    const big = `${token} ${filler(20_000)}`;
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { q: big } } };
    const requestText = JSON.stringify(request);
    const response = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: `found ${token}` }] } };
    recorder.record(session, 'client_to_server', request, requestText.length, requestText);
    // The journal's commit for the request waits for it.
    const journaled = recorder.commitJournal(session);
    // A small answer of the same session waits behind the request it answers.
    recorder.record(session, 'server_to_client', response, 80, JSON.stringify(response));
    expect(held.jobs).toBe(1);
    expect(journaled).toBeInstanceOf(Promise);
    expect(session.recordingBacklog).toBeInstanceOf(Promise);
    expect(session.row.message_count).toBe(0);
    expect(session.pending.size).toBe(0);

    // Another session is not held.
    const other = recorder.startSession(origin, { transport: 'streamable-http' });
    recorder.record(other, 'client_to_server', response, 80);
    expect(other.row.message_count).toBe(1);
    expect(recorder.commitJournal(other)).toBeUndefined();

    held.open();
    await journaled;
    expect(session.row.message_count).toBeGreaterThanOrEqual(1);
    await recorder.recorded();
    expect(session.row.message_count).toBe(2);
    expect(session.recordingBacklog).toBeUndefined();
    await recorder.close();
    const [call] = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(call.status).toBe('ok');
    expect(call.arguments).toEqual({ q: big.replace(token, '[REDACTED:github-pat]') });
    expect(call.result).toEqual({ content: [{ type: 'text', text: 'found [REDACTED:github-pat]' }] });
    // The replay, in seq order: the request, then its answer.
    const messages = await recordedMessages(database.db, session.row.id);
    expect(messages.map((message) => message.direction)).toEqual(['client_to_server', 'server_to_client']);
    expect(JSON.stringify(messages)).not.toContain(token);
  });

  it.each([
    ['dies at its first job', path.resolve(__dirname, '../../../fixtures/redaction/dyingWorker.js')],
    ['cannot start', path.resolve(__dirname, '../../../fixtures/redaction/noSuchWorker.js')],
  ])('a thread that %s: the message is redacted inline, not lost', async (_case, workerFile) => {
    const failures: unknown[] = [];
    const failing = thread(1024, (error) => failures.push(error), { workerFile });
    const big = `${token} ${filler(4000)}`;
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'read', arguments: { q: big } } };
    const answers: (Redacted | null)[] = [];
    const spy: OffThreadRedaction = {
      minBytes: failing.minBytes,
      redact: async (...args) => {
        const answer = await failing.redact(...args);
        answers.push(answer);
        return answer;
      },
    };
    const recorder = recorderWith(spy);
    const session = recorder.startSession(origin, { transport: 'streamable-http' });
    const text = JSON.stringify(request);
    recorder.record(session, 'client_to_server', request, text.length, text);
    expect(session.recordingBacklog).toBeInstanceOf(Promise);
    await recorder.close();
    // The thread did not answer; the recorder redacted the message itself.
    expect(answers).toEqual([null]);
    expect(failures.length).toBeGreaterThan(0);
    const [call] = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(call.arguments).toEqual({ q: big.replace(token, '[REDACTED:github-pat]') });
  });
});
