// The project's architecture as rules (docs/architecture.md draws them). `npm run lint:arch`
// checks them on every test run; a new arrow that breaks one fails `npm test`.
//
// Rooms: src/contract (shared by both sides), src/client (the SPA), src/server (API, proxy,
// background work), src/demo (a client of the product like any agent). Inside the server, the
// HTTP modules (modules/<domain>/) sit on top: they may use every room; the background rooms
// (proxy, monitor, recording, deployments, integrations, telemetry, …) and the data room
// (data/) never reach into them.
const BACKGROUND_ROOMS =
  '^src/server/(proxy|monitor|recording|deployments|integrations|telemetry|notifications|events|metrics|mail|schemas|net|db|auth|http|data)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'client-not-to-server',
      severity: 'error',
      comment: 'The SPA talks to the server over HTTP only; what both need lives in src/contract.',
      from: { path: '^src/client/' },
      to: { path: '^src/(server|demo)/' },
    },
    {
      name: 'server-not-to-client',
      severity: 'error',
      comment: 'The server never imports the SPA; what both need lives in src/contract.',
      from: { path: '^src/server/' },
      to: { path: '^src/(client|demo)/' },
    },
    {
      name: 'contract-imports-neither-side',
      severity: 'error',
      comment: 'src/contract is shared by client and server: no React, no Node, no side.',
      from: { path: '^src/contract/' },
      to: { path: '^src/(client|server|demo)/' },
    },
    {
      name: 'demo-is-a-client',
      severity: 'error',
      comment: 'The demo drives the product over REST and the proxy like any agent: contract only.',
      from: { path: '^src/demo/' },
      to: { path: '^src/(client|server)/' },
    },
    {
      name: 'background-rooms-not-to-http-modules',
      severity: 'error',
      comment:
        'The hot path, the monitors, the recorder, the runner and the senders never import route code: what several rooms read lives in src/server/data/.',
      from: { path: BACKGROUND_ROOMS },
      to: { path: '^src/server/modules/' },
    },
    {
      name: 'data-room-is-a-floor',
      severity: 'error',
      comment: 'src/server/data/ holds rows, queries and sealing: it depends on db/, contract and itself only.',
      from: { path: '^src/server/data/' },
      to: { path: '^src/server/', pathNot: '^src/server/(data|db|schemas|http/errors)' },
    },
    {
      name: 'features-not-into-other-features-internals',
      severity: 'error',
      comment:
        "A feature uses another feature only through its public face at the folder's root: <feature>Api.ts (endpoints and hooks), <feature>Slice.ts (state and selectors) and use*.ts hooks. Components and helpers both need move to src/client/components/.",
      from: { path: '^src/client/features/([^/]+)/' },
      to: {
        path: '^src/client/features/([^/]+)/',
        pathNot: [
          '^src/client/features/$1/',
          '^src/client/features/[^/]+/[^/]+(Api|Slice)\\.ts$',
          '^src/client/features/[^/]+/use[A-Z][^/]*\\.tsx?$',
          '^src/client/features/[^/]+/index\\.tsx?$',
        ],
      },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'A circle of imports means two modules are one thing, or a third is missing.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'tests-not-in-the-product',
      severity: 'error',
      comment: 'Nothing the product ships imports test code.',
      from: { path: '^src/' },
      to: { path: '^test/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    reporterOptions: {
      dot: {
        collapsePattern:
          '^src/(contract|demo)|^src/server/(modules|data|proxy|monitor|recording|deployments|integrations|telemetry|notifications|events|db|auth|http|net|schemas|metrics|mail)|^src/client/(app|api|shell|components|features/[^/]+)|node_modules/[^/]+',
      },
    },
  },
};
