// Lets a bench script load the project's TypeScript sources directly (transpile only), so a bench
// needs no build. `requireSource` is a CommonJS require that resolves as if from scripts/.
//
// Not ts-node: ts-node loads Node's REPL, the REPL loads `node:domain`, and once `node:domain` is
// loaded every EventEmitter of the process is built and emits through its wrappers (a property
// defined per emitter, an extra frame per emit). The server as `npm start` runs it never loads it,
// so a bench under ts-node measured a slower proxy — and a slower bare proxy beside it — than the
// one users run (docs/benchmarks.md, issue 39). TypeScript's own transpileModule, per file, with
// the test configuration's options, is all a bench needs.
import fs from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';

const root = new URL('../..', import.meta.url).pathname;
// Anchored in scripts/, so a bench requires '../src/…' as it would from its own file.
export const requireSource = createRequire(new URL('../', import.meta.url));

const ts = requireSource('typescript');
const configFile = path.join(root, 'test/tsconfig.json');
const { config } = ts.readConfigFile(configFile, ts.sys.readFile);
const { options } = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(configFile));
const compilerOptions = { ...options, module: ts.ModuleKind.CommonJS, sourceMap: false, inlineSourceMap: true };

for (const extension of ['.ts', '.tsx']) {
  Module._extensions[extension] = (module, filename) => {
    const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
      compilerOptions,
      fileName: filename,
    });
    module._compile(outputText, filename);
  };
}
