import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startProxyApp, type ProxyTestApp } from '../proxy/support/proxyApp';
import { startStreamableUpstream, type SdkUpstream } from '../proxy/support/sdkUpstream';
import { bearer } from '../helpers/accounts';
import { engineName } from '../helpers/testDatabase';
import type { ExportLine, ExportSchedule } from '../../../src/contract/dataExport';
import type { ReplayResult, SessionListResult } from '../../../src/contract/sessions';

jest.setTimeout(120_000);

// Issue 33 item 3: an owner schedules a daily export; the retention job writes yesterday's file to
// the operator's folder before it expires anything, once per day, with the clock the test sets.

const DAY = 86_400_000;

describe(`scheduled daily export (${engineName})`, () => {
  let t: ProxyTestApp;
  let upstream: SdkUpstream;
  let exportDir: string;
  const today = new Date().toISOString().slice(0, 10);
  const tomorrowEarly = new Date(Date.parse(`${today}T00:30:00.000Z`) + DAY);

  const api = (method: 'GET' | 'PUT', suffix: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/workspaces/${t.account.workspaceId}${suffix}`,
      headers: bearer(t.account.accessToken),
      payload,
    });

  beforeAll(async () => {
    exportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-daily-export-'));
    t = await startProxyApp({ exportDir });
    upstream = await startStreamableUpstream({ json: true, stateful: true });
    const { proxyUrl } = await t.register(upstream.url, { name: 'fixture' });
    const client = new Client({ name: 'daily-agent', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(proxyUrl);
    await client.connect(transport);
    await client.callTool({ name: 'echo', arguments: { text: 'exported nightly' } });
    await transport.terminateSession();
    await client.close();
    await t.app.recorder.flush();
  });
  afterAll(async () => {
    await (upstream as SdkUpstream | undefined)?.close();
    await (t as ProxyTestApp | undefined)?.close();
    fs.rmSync(exportDir, { recursive: true, force: true });
  });

  it('is off until the owner turns it on, and only where the operator named a folder', async () => {
    expect((await api('GET', '/export-schedule')).json<ExportSchedule>()).toEqual({
      enabled: false,
      available: true,
      exportedThrough: null,
    });
    t.app.config.exportDir = undefined;
    const refused = await api('PUT', '/export-schedule', { enabled: true });
    t.app.config.exportDir = exportDir;
    expect(refused.statusCode).toBe(400);
    expect((await api('PUT', '/export-schedule', { enabled: 'yes' })).statusCode).toBe(400);
    const on = await api('PUT', '/export-schedule', { enabled: true });
    expect(on.json<ExportSchedule>()).toMatchObject({ enabled: true, exportedThrough: null });
  });

  it('writes yesterday’s file before expiry, once, holding the day’s sessions in the replay’s format', async () => {
    const [session] = (await api('GET', '/sessions')).json<SessionListResult>().sessions;
    const replay = (await api('GET', `/sessions/${session.id}/replay?limit=1000`)).json<ReplayResult>();

    await t.app.retention.runOnce(tomorrowEarly);
    const file = path.join(exportDir, t.account.workspaceId, `toolscope-export-${today}.jsonl`);
    expect(fs.readdirSync(path.dirname(file))).toEqual([path.basename(file)]);
    expect(fs.statSync(file).mode & 0o077).toBe(0);
    const lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ExportLine);
    expect(lines[0]).toMatchObject({ type: 'export', from: `${today}T00:00:00.000Z`, sessions: 1 });
    const messages = lines.flatMap((l) => (l.type === 'message' ? [l.message] : []));
    expect(messages).toEqual(replay.messages);
    expect(lines.at(-1)).toMatchObject({ type: 'end', sessions: 1, messages: replay.total });
    expect((await api('GET', '/export-schedule')).json<ExportSchedule>().exportedThrough).toBe(today);

    // The next run the same day writes nothing new; a week on, the raw data expires and the file stays.
    const before = fs.statSync(file).mtimeMs;
    await t.app.retention.runOnce(new Date(tomorrowEarly.getTime() + 3_600_000));
    expect(fs.statSync(file).mtimeMs).toBe(before);
    await t.app.retention.runOnce(new Date(tomorrowEarly.getTime() + 8 * DAY));
    expect((await api('GET', '/sessions')).json<SessionListResult>().total).toBe(0);
    expect(fs.existsSync(file)).toBe(true);
  });
});
