// Test double for src/client/env.ts: `import.meta.env` does not compile under ts-jest (CommonJS).
export const env = { apiBase: '', mode: 'test', dev: false, buildId: '' };
