import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { startStreamableUpstream, type SdkUpstream } from '../server/proxy/support/sdkUpstream';
import { ownPostgresUnavailable, startOwnPostgres, type OwnPostgres } from '../server/proxy/support/ownPostgres';
import { allToolCalls, registerServer, signUp } from './helpers/appApi';
import { sessionsDisagreeing } from './helpers/sessionCounts';
import { startAgentLoad, until } from './helpers/agentLoad';
import { startAppProcess, type AppProcess } from './helpers/appProcess';
import { startRoundRobinBalancer, type Balancer } from './helpers/roundRobinBalancer';
import { stopEverythingStarted } from './helpers/processRegistry';

jest.setTimeout(600_000);

// Issue 32 (b): every way a database can fail to take writes, one after another, on a PostgreSQL
// of the test's own, under load: 8 official-SDK agents call tools through a round-robin balancer
// in front of two instances. Each failure lasts until an instance's recorder says its writes fail
// and some calls were answered meanwhile (a few seconds: waited for as states, so the suite stays
// fast), then is lifted. Through all of it /api/health answers 200 on both instances; afterwards
// every answered call is recorded exactly once, and every session's counts equal its stored rows.
const unavailable = ownPostgresUnavailable();
if (unavailable) {
  const message = `recordingChaos.e2e.test.ts cannot start a PostgreSQL of its own: ${unavailable}. The database failures are NOT tested here.`;
  if (process.env.CI === 'true') throw new Error(message);
  console.error(`\n!!! ${message} !!!\n`);
}

/** How long each database failure lasts. */
const OUTAGE_MS = 20_000;

interface SystemHealth {
  serving: boolean;
  recorder: { behind: boolean; waitingRows: number; writeFailingSince: string | null; setAside: number } | null;
}

describe('recording through every database failure, two instances behind a balancer', () => {
  let pg_: OwnPostgres | undefined;
  let upstream: SdkUpstream | undefined;
  let balancer: Balancer | undefined;
  let admin: pg.Client | undefined;
  const fill: pg.Client[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    await Promise.all(fill.map((c) => c.end().catch(() => undefined)));
    await admin?.end().catch(() => undefined);
    await stopEverythingStarted();
    await balancer?.close();
    await upstream?.close();
    pg_?.remove();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers through refused connections, a stopped server, read-only, statement timeouts and full connection slots, and records every answered call once', async () => {
    if (unavailable) return; // said loudly above
    const pgServer = (pg_ = await startOwnPostgres());
    const secret = randomBytes(32).toString('base64url');
    const start = () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-chaos-'));
      dirs.push(dataDir);
      return startAppProcess({ TOOLSCOPE_DATA_DIR: dataDir, DATABASE_URL: pgServer.url, TOOLSCOPE_SECRET: secret });
    };
    const instances: AppProcess[] = [await start(), await start()];
    upstream = await startStreamableUpstream({ json: false, stateful: true, keepAliveTimeoutMs: 120_000 });
    const account = await signUp(instances[0].baseUrl);
    const proxyPath = await registerServer(instances[0].baseUrl, account, upstream.url);
    balancer = await startRoundRobinBalancer(instances.map((i) => i.baseUrl));

    const adminUrl = new URL(pgServer.url);
    adminUrl.pathname = '/template1'; // stays open while the app's database refuses connections
    const connectAdmin = async () => {
      const client = new pg.Client({ connectionString: adminUrl.toString() });
      client.on('error', () => undefined);
      await client.connect();
      await client.query('set default_transaction_read_only = off; set statement_timeout = 0');
      return client;
    };
    admin = await connectAdmin();
    const terminateAppBackends = () =>
      admin!.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = 'postgres' and pid <> pg_backend_pid()",
      );

    // An instance that stops answering at all has crashed: what it last logged says why.
    const health = async (app: AppProcess) => {
      try {
        return (await fetch(`${app.baseUrl}/api/health`)).status;
      } catch (error) {
        throw new Error(
          `${app.baseUrl} stopped answering (${String(error)}); its last output:\n${app.output().slice(-8000)}`,
        );
      }
    };
    const system = async (app: AppProcess) =>
      (await (await fetch(`${app.baseUrl}/api/v1/system/health`)).json()) as SystemHealth;
    const probes: number[] = [];
    const probe = async () => {
      for (const app of instances) probes.push(await health(app));
    };

    // 8 × 120 calls stay under the starter plan's 1,000 calls a month (the quota is counted here too).
    const load = await startAgentLoad(new URL(proxyPath, balancer.url), {
      clients: 8,
      perClient: 120,
      tag: 'chaos',
      // Spread over the five 20 s outages and their recoveries (~2 min): ~7 calls a second.
      pauseMs: 1200,
    });
    await until(() => load.answered.size >= 40, 'the first answers');

    const faults: { name: string; begin: () => Promise<void>; end: () => Promise<void> }[] = [
      {
        name: 'connections refused (allow_connections false) and backends terminated',
        begin: async () => {
          await admin!.query('alter database postgres allow_connections false');
          await terminateAppBackends();
        },
        end: async () => {
          await admin!.query('alter database postgres allow_connections true');
        },
      },
      {
        name: 'server stopped',
        begin: async () => {
          await admin!.end().catch(() => undefined);
          pgServer.stop();
        },
        end: async () => {
          pgServer.start();
          admin = await connectAdmin();
        },
      },
      {
        name: 'default_transaction_read_only',
        begin: async () => {
          await admin!.query('alter system set default_transaction_read_only = on');
          await admin!.query('select pg_reload_conf()');
        },
        end: async () => {
          await admin!.query('alter system reset default_transaction_read_only');
          await admin!.query('select pg_reload_conf()');
        },
      },
      {
        name: 'statement timeout (1 ms)',
        begin: async () => {
          await admin!.query("alter system set statement_timeout = '1ms'");
          await admin!.query('select pg_reload_conf()');
        },
        end: async () => {
          await admin!.query('alter system reset statement_timeout');
          await admin!.query('select pg_reload_conf()');
        },
      },
      {
        name: 'max_connections exhausted',
        begin: async () => {
          // Every slot taken (superuser slots too: the app connects as a superuser here), then the
          // app's connections cut: it cannot get one back while the fault lasts.
          for (;;) {
            const client = new pg.Client({ connectionString: adminUrl.toString() });
            client.on('error', () => undefined);
            try {
              await client.connect();
              fill.push(client);
            } catch {
              break;
            }
          }
          await terminateAppBackends();
        },
        end: async () => {
          await Promise.all(fill.splice(0).map((c) => c.end().catch(() => undefined)));
        },
      },
    ];

    const figures: string[] = [];
    let failuresSeen = 0;
    for (const fault of faults) {
      const answeredBefore = load.answered.size;
      const startedAt = Date.now();
      await fault.begin();
      let failing = false;
      // Each outage lasts 20 s (the figure: longer than any retry pause, so the batches wait
      // through several tries), and until a recorder says its writes fail and calls were answered
      // meanwhile (states, so a slow machine holds it longer rather than failing).
      for (;;) {
        await probe();
        const states = await Promise.all(instances.map(system));
        failing ||= states.some((s) => s.recorder?.writeFailingSince != null);
        const held = Date.now() - startedAt;
        if (held >= OUTAGE_MS && failing && load.answered.size - answeredBefore >= 24) break;
        if (held >= OUTAGE_MS * 4) break; // asserted below: writes never failed, or no call was answered
        if (fault.name === 'max_connections exhausted') await terminateAppBackends().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const heldMs = Date.now() - startedAt;
      if (load.failures.length > failuresSeen)
        console.log(`during "${fault.name}": ${load.failures.slice(failuresSeen).join('; ')}`);
      failuresSeen = load.failures.length;
      const answeredDuring = load.answered.size - answeredBefore;
      await fault.end();
      await until(
        async () => (await Promise.all(instances.map(system))).every((s) => s.recorder?.writeFailingSince == null),
        `the recorders to write again after "${fault.name}"`,
        90_000,
      );
      figures.push(
        `${fault.name}: held ${(heldMs / 1000).toFixed(1)} s, writes failed: ${failing}, ${answeredDuring} calls answered meanwhile, recovered ${((Date.now() - startedAt - heldMs) / 1000).toFixed(1)} s after`,
      );
      expect({ fault: fault.name, failing, answeredDuring: answeredDuring >= 24 }).toEqual({
        fault: fault.name,
        failing: true,
        answeredDuring: true,
      });
    }
    await probe();

    await load.done;
    console.log(
      `chaos:\n  ${figures.join('\n  ')}\n  ${load.answered.size} calls answered, failures: ${load.failures.length}`,
    );
    expect(probes.filter((status) => status !== 200)).toEqual([]);
    await until(
      async () =>
        (await Promise.all(instances.map(system))).every((s) => s.recorder?.waitingRows === 0 && !s.recorder.behind),
      'both recorders to drain',
      90_000,
    );

    const calls = await allToolCalls(balancer.url, account);
    const seen = new Map<string, number>();
    for (const call of calls) {
      const text = (call.arguments as { text?: string }).text ?? '';
      seen.set(text, (seen.get(text) ?? 0) + 1);
    }
    const missing = [...load.answered].filter((text) => !seen.has(text));
    const twice = [...seen].filter(([, n]) => n > 1).map(([text]) => text);
    expect({ missing, twice }).toEqual({ missing: [], twice: [] });
    const setAside = (await Promise.all(instances.map(system))).map((s) => s.recorder?.setAside);
    expect(setAside).toEqual([0, 0]);

    // Every session's counts (written by both instances, as parts) equal its stored rows.
    const agree = (status: 'active' | 'ended') =>
      sessionsDisagreeing(balancer!.url, account, calls, { clientPrefix: 'load-chaos-', sessions: 8, status });
    expect(await agree('active')).toEqual([]);
    // And after the agents end their sessions (each DELETE reaches either instance).
    await load.close({ endSessions: true });
    expect(await agree('ended')).toEqual([]);
    if (load.failures.length > 0)
      for (const app of instances)
        console.log(
          app
            .output()
            .split('\n')
            .filter((line) => /"level":(40|50|60)/.test(line) && !/recorder flush failed|LISTEN|listen/.test(line))
            .slice(0, 20)
            .join('\n'),
        );
    // What this test holds is that every ANSWERED call is recorded once. A call whose connection
    // the test's balancer dropped under load (seen once in three runs: "fetch failed") was never
    // answered and ends only its own agent; more than one such loss is a real failure.
    if (load.failures.length) console.warn(`calls not answered (agent stopped): ${load.failures.join('; ')}`);
    expect(load.failures.length).toBeLessThanOrEqual(1);
  });
});
