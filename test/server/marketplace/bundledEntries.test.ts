import fs from 'node:fs';
import path from 'node:path';
import { catalogSlug } from '../../../src/contract/marketplace';
import { marketplaceDeployPath } from '../../../src/contract/packageLaunch';
import bundledCatalog from '../../../src/server/modules/marketplace/bundledCatalog.json';
import { bearer, registerAccount } from '../helpers/accounts';
import { buildTestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';

// Issue 37 item 10: the bundled catalog's reference servers are deployable as they come (the
// Filesystem entry asked for an argument the deploy could not take) and pinned at current releases
// (memory and sequential-thinking named 2025 releases while npm had 2026.8.31).
type Entry = {
  name: string;
  packages?: { registryType: string; identifier: string; version?: string }[];
};
const entries = (bundledCatalog as unknown as { servers: Entry[] }).servers;

/** The version of an npm package this project installs (and its tests run), if it installs it. */
function installedVersion(identifier: string): string | undefined {
  const file = path.join(process.cwd(), 'node_modules', identifier, 'package.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version : undefined;
}

describe('the bundled catalog’s reference servers', () => {
  it('name the releases this project installs and tests against', () => {
    const pinned = entries.flatMap((entry) =>
      (entry.packages ?? [])
        .filter((p) => p.registryType === 'npm' && installedVersion(p.identifier) !== undefined)
        .map((p) => ({ package: p.identifier, catalog: p.version, installed: installedVersion(p.identifier) })),
    );
    // The three reference servers the suites run (everything, filesystem, memory) at least.
    expect(pinned.length).toBeGreaterThanOrEqual(3);
    for (const { package: name, catalog, installed } of pinned)
      expect({ name, catalog }).toEqual({ name, catalog: installed });
  });

  it(`deploys the Filesystem entry with the directory the user gives (${engineName})`, async () => {
    const t = await buildTestApp({ deploymentsEnabled: true });
    try {
      const owner = await registerAccount(t.app);
      const deploy = (payload: object) =>
        t.app.inject({
          method: 'POST',
          url: marketplaceDeployPath(owner.workspaceId),
          headers: bearer(owner.accessToken),
          payload,
        });
      const slug = catalogSlug('io.github.modelcontextprotocol/filesystem');
      const missing = await deploy({ slug, name: 'Files' });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ fields: { 'arguments.allowed_directory': 'Required' } });

      const deployed = await deploy({ slug, name: 'Files', arguments: { allowed_directory: '/srv/files' } });
      expect(deployed.statusCode).toBe(201);
      const [config] = await t.database.db.query<{ command: string; args: string[] }>(
        'select command, args from deployment_configs where id = $1',
        [deployed.json<{ configId: string }>().configId],
      );
      const version = installedVersion('@modelcontextprotocol/server-filesystem');
      expect(config).toEqual({
        command: 'npx',
        args: ['-y', `@modelcontextprotocol/server-filesystem@${version}`, '/srv/files'],
      });
    } finally {
      await t.close();
    }
  });
});
