import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startStreamableUpstream, type SdkUpstream } from '../server/proxy/support/sdkUpstream';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from '../server/proxy/support/ownPostgres';
import { allToolCalls, registerServer, signUp } from './helpers/appApi';
import { startAgentLoad, until } from './helpers/agentLoad';
import { startAppProcess, type AppProcess } from './helpers/appProcess';
import { stopEverythingStarted } from './helpers/processRegistry';

jest.setTimeout(300_000);
// 8 × 120 calls stay under the starter plan's 1,000 calls a month (the quota is counted here too).

// Issue 19 (b): PostgreSQL — one of the test's own, so stopping it touches no other test — is
// stopped for 20 s while 8 SDK agents call tools through the app's proxy. The proxy keeps
// answering, the recorder's journal grows and the health route says recording is behind and by
// how much; once PostgreSQL is back everything drains: every answered call is recorded, once.
const unavailable = ownPostgresUnavailable();
if (unavailable)
  console.error(
    `\n!!! recordingDatabaseOutage.e2e.test.ts cannot start a PostgreSQL of its own: ${unavailable}. The outage is NOT tested on this machine. !!!\n`,
  );

interface RecorderHealth {
  message: string;
  details: {
    writeFailed: boolean;
    behind: { queuedRows: number; oldestQueuedMs: number | null; journalBytes: number | null };
  };
}

describe('recording through a 20 s PostgreSQL outage', () => {
  let pg: OwnPostgres | undefined;
  let upstream: SdkUpstream | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await stopEverythingStarted();
    await upstream?.close();
    pg?.remove();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const recorderHealth = async (app: AppProcess) =>
    (await (await fetch(`${app.baseUrl}/api/v1/services/recorder/health`)).json()) as RecorderHealth;

  it('keeps answering, journals what waits, and drains with nothing lost', async () => {
    if (unavailable) return; // said loudly above
    pg = await startOwnPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-outage-'));
    upstream = await startStreamableUpstream({ json: false, stateful: true, keepAliveTimeoutMs: 120_000 });
    const app = await startAppProcess({ TOOLSCOPE_DATA_DIR: dataDir, DATABASE_URL: pg.url });
    const account = await signUp(app.baseUrl);
    const proxyPath = await registerServer(app.baseUrl, account, upstream.url);
    const load = await startAgentLoad(new URL(proxyPath, app.baseUrl), {
      clients: 8,
      perClient: 120,
      tag: 'outage',
      pauseMs: 250,
    });
    await until(() => load.answered.size >= 100, 'the first answers');

    pg.stop();
    const stoppedAt = Date.now();
    const answeredAtStop = load.answered.size;
    await until(
      async () => (await recorderHealth(app)).message.startsWith('Behind:'),
      'the health route to say the recorder is behind',
      20_000,
    );
    const early = await recorderHealth(app);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 20_000 - (Date.now() - stoppedAt))));
    const late = await recorderHealth(app);
    const answeredDuringOutage = load.answered.size - answeredAtStop;
    pg.start();
    console.log(
      `outage: ${answeredDuringOutage} calls answered while PostgreSQL was stopped; health said "${late.message}"`,
    );
    expect(answeredDuringOutage).toBeGreaterThan(200);
    expect(late.details.writeFailed).toBe(true);
    expect(late.details.behind.queuedRows).toBeGreaterThan(early.details.behind.queuedRows);
    expect(late.details.behind.journalBytes!).toBeGreaterThan(early.details.behind.journalBytes!);
    expect(late.details.behind.oldestQueuedMs!).toBeGreaterThan(10_000);

    await load.done;
    expect(load.failures).toEqual([]);
    await until(
      async () => (await recorderHealth(app)).details.behind.queuedRows === 0,
      'the recorder to drain',
      90_000,
    );
    const drained = await recorderHealth(app);
    expect(drained.message).not.toMatch(/^Behind/);
    expect(drained.details.writeFailed).toBe(false);

    const calls = await allToolCalls(app.baseUrl, account);
    const seen = new Map<string, number>();
    for (const call of calls) {
      const text = (call.arguments as { text?: string }).text ?? '';
      seen.set(text, (seen.get(text) ?? 0) + 1);
    }
    const missing = [...load.answered].filter((text) => !seen.has(text));
    const twice = [...seen].filter(([, n]) => n > 1).map(([text]) => text);
    expect({ missing, twice }).toEqual({ missing: [], twice: [] });
    expect(calls.filter((call) => call.status !== 'ok')).toEqual([]);
    console.log(
      `outage: ${load.answered.size} calls answered in all, ${calls.length} recorded, drained ${Math.round((Date.now() - stoppedAt) / 1000)} s after the stop`,
    );
    await load.close();
    await app.kill('SIGTERM');
  });
});
