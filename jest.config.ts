import type { Config } from 'jest';

// Three projects: the server and contract on Node with a real database, the SPA in jsdom,
// and the browser journeys (real Chromium against the built app started as `npm start` would).
const tsJest: Config['transform'] = {
  '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/test/tsconfig.json', diagnostics: false }],
};
// oauth4webapi ships ES modules only: Node requires it natively (require(esm)), Jest's module
// system does not, so ts-jest turns it into CommonJS like our own code.
const serverTransform: Config['transform'] = {
  ...tsJest,
  '^.+/oauth4webapi/.+\\.js$': [
    'ts-jest',
    { tsconfig: { allowJs: true, module: 'commonjs', isolatedModules: true }, diagnostics: false },
  ],
};
const serverTransformIgnore = ['/node_modules/(?!oauth4webapi/)'];

const config: Config = {
  maxWorkers: 2,
  // A worker that ends a test file holding more than this is replaced by a fresh one: left alone,
  // one grew to 7.9 GB over a full run (PGlite instances, SDK peers, built apps), and its garbage
  // collection slowed every later file in it.
  workerIdleMemoryLimit: '2GB',
  // testTimeout is a global option (Jest ignores it per project): the e2e files raise their own. It
  // bounds hooks too: a beforeAll that starts an app and an upstream took over 30 s at load 9–10 on
  // 2 cores (browserAccess, oidc), so 60 s — a test that hangs still fails, a minute later.
  testTimeout: 60_000,
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/server', '<rootDir>/test/contract'],
      setupFilesAfterEnv: ['<rootDir>/test/server/setup.ts'],
      transform: serverTransform,
      transformIgnorePatterns: serverTransformIgnore,
    },
    {
      displayName: 'client',
      testEnvironment: 'jest-fixed-jsdom',
      roots: ['<rootDir>/test/client'],
      // DiceBear ships ES modules only: ts-jest turns them into CommonJS like our own code.
      transform: {
        ...tsJest,
        '^.+/@dicebear/.+\\.js$': [
          'ts-jest',
          { tsconfig: { allowJs: true, module: 'commonjs', isolatedModules: true }, diagnostics: false },
        ],
      },
      transformIgnorePatterns: ['/node_modules/(?!@dicebear/)'],
      setupFilesAfterEnv: ['<rootDir>/test/client/setup.ts'],
      moduleNameMapper: {
        '^(.*/client|\\.{1,2}(/\\.\\.)*)/env$': '<rootDir>/test/client/envDouble.ts',
        '\\.(css|svg|png)$': '<rootDir>/test/client/fileDouble.ts',
      },
    },
    {
      displayName: 'e2e',
      testEnvironment: 'node',
      roots: ['<rootDir>/test/e2e'],
      transform: serverTransform,
      transformIgnorePatterns: serverTransformIgnore,
    },
  ],
};

export default config;
