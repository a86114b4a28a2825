// Lets a bench script load the project's TypeScript sources directly (transpile only), so a bench
// needs no build. `requireSource` is a CommonJS require that resolves as if from scripts/.
import { createRequire } from 'node:module';

const root = new URL('../..', import.meta.url).pathname;
// Anchored in scripts/, so a bench requires '../src/…' as it would from its own file.
export const requireSource = createRequire(new URL('../', import.meta.url));
requireSource('ts-node').register({
  transpileOnly: true,
  project: `${root}test/tsconfig.json`,
  compilerOptions: { rootDir: root },
});
