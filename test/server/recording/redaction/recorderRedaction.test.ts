import { EventBus } from '../../../../src/server/events/bus';
import { Recorder, type SessionOrigin } from '../../../../src/server/recording/recorder';
import { compileRules, DEFAULT_SETTINGS } from '../../../../src/server/recording/redaction/compiledRules';
import { Redactor } from '../../../../src/server/recording/redaction/redactor';
import type { TestDatabase } from '../../helpers/testDatabase';
import { openRecordingWorkspace } from '../../helpers/recordingWorkspace';
import { recordedCalls, recordedMessages } from '../../helpers/recordedRows';
import { CORPUS } from '../../helpers/redactionCorpus';

// The recorder on its own with a redactor: what it stores of a call (arguments, result, error
// text, its messages) is the redacted message; a redactor that fails never reaches the proxy's
// path (record does not throw) and fails closed (the payload is not stored).
jest.setTimeout(60_000);

describe('recorder with redaction', () => {
  let database: TestDatabase;
  let origin: SessionOrigin;
  const token = CORPUS['github-pat'].positives[0].value;

  beforeAll(async () => {
    ({ database, origin } = await openRecordingWorkspace('redaction'));
  });
  afterAll(() => database.drop());

  const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'deploy', arguments: { value: token } } };
  const failure = {
    jsonrpc: '2.0',
    id: 1,
    result: { isError: true, content: [{ type: 'text', text: `rejected ${token}` }] },
  };

  it('stores the call, its error text and its messages redacted', async () => {
    const redactor = new Redactor(compileRules(DEFAULT_SETTINGS), Buffer.alloc(32));
    const recorder = new Recorder(database.db, new EventBus(), {
      queueLimit: 1000,
      flushMs: 10_000,
      redaction: { forWorkspace: () => redactor },
    });
    const session = recorder.startSession(origin, { transport: 'streamable-http' });
    recorder.record(session, 'client_to_server', call, 100, JSON.stringify(call));
    recorder.record(session, 'server_to_client', failure, 100, JSON.stringify(failure));
    await recorder.close();
    const [stored] = await recordedCalls(database.db, 'tc.session_id = $1', [session.row.id]);
    expect(stored).toMatchObject({
      tool_name: 'deploy',
      arguments: { value: '[REDACTED:github-pat]' },
      error_message: 'rejected [REDACTED:github-pat]',
    });
    expect(JSON.stringify(await recordedMessages(database.db, session.row.id))).not.toContain(token);
  });

  it('never throws into the proxy when redaction fails, and stores no payload then', async () => {
    const recorder = new Recorder(database.db, new EventBus(), {
      queueLimit: 1000,
      flushMs: 10_000,
      redaction: {
        forWorkspace: () => {
          throw new Error('broken rules');
        },
      },
    });
    const session = recorder.startSession(origin, { transport: 'streamable-http' });
    expect(() => recorder.record(session, 'client_to_server', call, 100, JSON.stringify(call))).not.toThrow();
    expect(() => recorder.record(session, 'server_to_client', failure, 100, JSON.stringify(failure))).not.toThrow();
    await recorder.close();
    const messages = JSON.stringify(await recordedMessages(database.db, session.row.id));
    expect(messages).not.toContain(token);
    expect(messages).toContain('[REDACTED:unprocessable]');
  });
});

describe('redaction leaves MCP protocol state alone', () => {
  const redactor = new Redactor(compileRules(DEFAULT_SETTINGS), Buffer.alloc(32));

  it('keeps progress tokens and cursors, whose names look secret, and still redacts a token under "token"', () => {
    // High-entropy values, as clients make them: under "token" they would be taken for secrets.
    const progress = {
      jsonrpc: '2.0',
      method: 'notifications/progress',
      params: { progressToken: 'flood-3-149-99-Zq8xK2', progress: 1, total: 2 },
    };
    expect(redactor.redactMessage(progress, undefined)).toBe(progress);
    const page = { jsonrpc: '2.0', id: 4, result: { tools: [], nextCursor: 'eyJvZmZzZXQiOjUwLCJrIjoiOXgifQ' } };
    expect(redactor.redactMessage(page, undefined)).toBe(page);
    const secret = {
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/call',
      params: { name: 'login', arguments: { token: 'Zq8xK2vR7mW1pL4nB9tY' } },
    };
    expect(JSON.stringify(redactor.redactMessage(secret, 'login'))).toContain('[REDACTED:secret-key-value');
  });
});
