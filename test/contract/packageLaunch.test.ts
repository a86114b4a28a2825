import { packageLaunch } from '../../src/contract/packageLaunch';
import type { CatalogPackage } from '../../src/contract/marketplace';

// Open arguments of a catalog package (issue 37 item 10): what the deploy form asks for, where the
// given values land, and which positions catalog admission lets vary.
const pkg = {
  registryType: 'npm',
  identifier: '@acme-test/files-mcp',
  version: '2.0.0',
  transport: { type: 'stdio' },
  runtimeArguments: [{ type: 'named', name: '--node-options', value: '--max-old-space-size=256' }],
  packageArguments: [
    { type: 'named', name: '--root', description: 'Root folder', isRequired: true },
    { type: 'positional', valueHint: 'allowed_directory', description: 'A directory', isRequired: true },
    { type: 'positional', valueHint: 'optional_extra' },
  ],
} as unknown as CatalogPackage;

describe('a package with arguments the catalog leaves open', () => {
  it('lists them, and leaves them unfilled until given', () => {
    const open = packageLaunch(pkg)!;
    expect(open.arguments).toEqual([
      { key: '--root', description: 'Root folder' },
      { key: 'allowed_directory', description: 'A directory' },
    ]);
    expect(open.unfilledArguments).toEqual(['--root', 'allowed_directory']);
    expect(open.argumentSlots).toEqual([]);
  });

  it('puts given values where the catalog says, and names those positions', () => {
    const launch = packageLaunch(pkg, { '--root': '/data', allowed_directory: '/data/in' })!;
    expect(launch.unfilledArguments).toEqual([]);
    expect(launch.args).toEqual([
      '-y',
      '--node-options',
      '--max-old-space-size=256',
      '@acme-test/files-mcp@2.0.0',
      '--root',
      '/data',
      '/data/in',
    ]);
    expect(launch.argumentSlots.map((i) => launch.args[i])).toEqual(['/data', '/data/in']);
  });
});
