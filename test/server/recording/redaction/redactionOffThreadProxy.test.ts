import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonRpcMessage } from '../../../../src/server/proxy/jsonRpc';
import type { OffThreadRedaction } from '../../../../src/server/recording/redaction/redactionThread';
import type { Redactor } from '../../../../src/server/recording/redaction/redactor';
import { engineName } from '../../helpers/testDatabase';
import { recordedCalls } from '../../helpers/recordedRows';
import { CORPUS } from '../../helpers/redactionCorpus';
import { startProxyApp, type ProxyTestApp } from '../../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../../proxy/support/sdkUpstream';

// Issue 35, "a pathological input does not stall the proxy", through the real proxy and the SDK
// client: while one agent's large call waits for its redaction on the redaction thread (held
// there by the test), another agent's call is answered; the large call goes upstream only once its
// request is redacted and journaled, the agent gets its exact bytes, and neither the journal nor
// the database holds the secret it carried.
jest.setTimeout(180_000);

const token = CORPUS['github-pat'].positives[0].value;

/** The app's redaction thread, its answers held until the test opens it. */
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

async function until(probe: () => boolean): Promise<void> {
  while (!probe()) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe(`a large message redacted off the event loop, through the proxy (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let journalDir: string;
  let held: HeldThread | undefined;

  beforeAll(async () => {
    journalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-offthread-journal-'));
    // Rows stay in the journal until the test flushes: its files can be read.
    t = await startProxyApp({ journalDir, recorderFlushMs: 3_600_000 });
    // The large call waits (the thread starting, then held) while the proxy's pooled connection to
    // the upstream idles: kept open longer than the test, so reusing it never meets Node's 5 s close.
    upstream = await startStreamableUpstream({ json: true, stateful: true, keepAliveTimeoutMs: 120_000 });
  });
  afterAll(async () => {
    // A failed test may leave the thread held: the recorder's close waits for what it holds.
    held?.open();
    await t.close();
    await upstream.close();
    fs.rmSync(journalDir, { recursive: true, force: true });
  });

  it("another agent's call is answered while a large call waits for its redaction; nothing of the secret is kept", async () => {
    const offThread = t.app.redaction.offThread;
    if (!offThread) throw new Error('the proxy has no redaction thread');
    const thread = new HeldThread(offThread);
    held = thread;
    t.app.redaction.offThread = thread;
    const { proxyUrl } = await t.register(upstream.url);
    const large = new Client({ name: 'large', version: '1.0.0' });
    const small = new Client({ name: 'small', version: '1.0.0' });
    await large.connect(new StreamableHTTPClientTransport(proxyUrl));
    await small.connect(new StreamableHTTPClientTransport(proxyUrl));

    const big = `${token} ${'a line of a large tool argument, nothing else secret. '.repeat(Math.ceil((thread.minBytes * 3) / 54))}`;
    const bigCall = large.callTool({ name: 'echo', arguments: { text: big } });
    await until(() => thread.jobs === 1);
    // Held: the large request has not gone upstream (it travels once it is journaled)…
    const reachedUpstream = () => JSON.stringify(upstream.posted ?? []).includes(token);
    expect(reachedUpstream()).toBe(false);
    // …and the other agent's call goes through meanwhile.
    const answered = await small.callTool({ name: 'echo', arguments: { text: 'hello' } });
    expect(answered.content).toEqual([{ type: 'text', text: 'echo: hello' }]);
    expect(thread.jobs).toBe(1);
    expect(reachedUpstream()).toBe(false);

    thread.open();
    const result = await bigCall;
    // The agent got the upstream's exact answer, the secret in it.
    expect(result.content).toEqual([{ type: 'text', text: `echo: ${big}` }]);
    await large.close();
    await small.close();

    await t.app.recorder.recorded();
    // The request, then the answer (as large): both through the thread.
    expect(thread.jobs).toBe(2);
    const journalText = fs
      .readdirSync(journalDir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'))
      .join('\n');
    expect(journalText).toContain('[REDACTED:github-pat]');
    expect(journalText).not.toContain(token);

    await t.app.recorder.flush();
    const calls = await recordedCalls(t.database.db, 'tc.workspace_id = $1', [t.account.workspaceId]);
    const bigRow = calls.find((call) => JSON.stringify(call.arguments).includes('[REDACTED:github-pat]'));
    expect(bigRow).toMatchObject({ tool_name: 'echo', status: 'ok' });
    expect(calls.find((call) => JSON.stringify(call.arguments).includes('hello'))).toMatchObject({ status: 'ok' });
    const tables = await t.database.db.query<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    for (const { table_name } of tables) {
      const rows = await t.database.db.query<{ t: string }>(`select t::text as t from "${table_name}" t`);
      expect({ table_name, holdsToken: rows.some((row) => row.t.includes(token)) }).toEqual({
        table_name,
        holdsToken: false,
      });
    }
  });
});
