import type { App } from '../../../src/server/app';
import { buildApp } from '../../../src/server/app';
import path from 'node:path';
import { loadConfig, generateSecret, type Config } from '../../../src/server/config';
import { defaultReadOnlyPaths } from '../../../src/server/deployments/sandbox';
import { openTestDatabase, type TestDatabase } from './testDatabase';
import { testMailbox } from './testMailbox';

export interface TestApp {
  app: App;
  database: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

/** A fully built app on a fresh database, no SPA, nothing listening (use app.inject). */
export async function buildTestApp(overrides: Partial<Config> = {}, database?: TestDatabase): Promise<TestApp> {
  const db = database ?? (await openTestDatabase());
  // Suites sign up many accounts from one address: the per-client sign-in limit is lifted here and
  // proved in test/server/auth/signInSurface.test.ts; so is the per-address connection cap (load
  // and chaos suites open hundreds from loopback), proved in test/server/http/slowClients.test.ts.
  // No journal unless a test asks for one (the default folder is under the working directory, shared by every suite).
  const config = loadConfig(
    {},
    {
      secret: generateSecret(),
      clientDir: undefined,
      authRateLimitPerMinute: 10_000,
      connectionsPerClient: 100_000,
      journalDir: undefined,
      // Mail leaves through SMTP into the process's test mailbox (verification links are read there).
      smtpUrl: (await testMailbox()).url,
      // Deployed test programs live in test/fixtures: the sandbox shows them read-only.
      sandboxReadOnlyPaths: [...defaultReadOnlyPaths(process.cwd()), path.resolve(__dirname, '../../fixtures')],
      ...overrides,
    },
  );
  const app = await buildApp({ config, db: db.db });
  await app.ready();
  return {
    app,
    database: db,
    config,
    close: async () => {
      await app.close();
      if (!database) await db.drop();
    },
  };
}
