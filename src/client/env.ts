// The only module that reads import.meta.env (ts-jest compiles to CommonJS, where it does not
// exist; tests map this file to test/client/envDouble.ts).
export const env = {
  apiBase: (import.meta.env.VITE_API_BASE as string | undefined) ?? '',
  mode: import.meta.env.MODE,
  dev: import.meta.env.DEV,
  /** VITE_BUILD_ID at build time (CI or a deploy can name its build); stamped on <html data-build>. */
  buildId: (import.meta.env.VITE_BUILD_ID as string | undefined) ?? '',
};
