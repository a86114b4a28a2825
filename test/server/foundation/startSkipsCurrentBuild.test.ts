import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Issue 38 item 5: `npm start` builds only when the build is not current. The real start script
// and its build-stamp steps run in a scratch project whose `build` is a stand-in that counts its
// runs and writes the two outputs (the real build takes a minute; what is tested is the skipping).
const ROOT = path.resolve(__dirname, '../../..');
const SCRIPTS = ['scripts/start.mjs', 'scripts/build-stamp.mjs', 'scripts/lib/currentBuild.mjs'];

const FAKE_BUILD = `
const fs = require('node:fs');
fs.appendFileSync('builds.log', 'built\\n');
fs.mkdirSync('dist/node/server', { recursive: true });
fs.mkdirSync('dist/client', { recursive: true });
fs.writeFileSync('dist/node/server/main.js', "console.log('server started');\\n");
fs.writeFileSync('dist/client/index.html', '<!doctype html>');
`;

describe('npm start skips a build that is current', () => {
  let project: string;

  beforeAll(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-start-'));
    for (const script of SCRIPTS) {
      fs.mkdirSync(path.dirname(path.join(project, script)), { recursive: true });
      fs.copyFileSync(path.join(ROOT, script), path.join(project, script));
    }
    const real = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const scripts = { ...real.scripts, build: 'node fake-build.js' };
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'scratch', scripts }, null, 2));
    fs.writeFileSync(path.join(project, 'package-lock.json'), '{"lockfileVersion": 3}\n');
    fs.writeFileSync(path.join(project, 'fake-build.js'), FAKE_BUILD);
    fs.mkdirSync(path.join(project, 'src/server'), { recursive: true });
    fs.writeFileSync(path.join(project, 'src/server/main.ts'), 'export const version = 1;\n');
  });

  afterAll(() => fs.rmSync(project, { recursive: true, force: true }));

  const builds = () => fs.readFileSync(path.join(project, 'builds.log'), 'utf8').trim().split('\n').length;

  /** `npm start` as the package.json says it; its output. */
  function npmStart(): string {
    const run = spawnSync('npm', ['start'], { cwd: project, encoding: 'utf8' });
    expect(run.status).toBe(0);
    return run.stdout + run.stderr;
  }

  it('builds the first time, then starts without building while nothing changed', () => {
    const first = npmStart();
    expect(first).toContain('Building Toolscope');
    expect(first).toContain('server started');
    expect(builds()).toBe(1);

    const second = npmStart();
    expect(second).toContain(
      'Build is current (sources and package-lock.json unchanged since the last build): not rebuilding.',
    );
    expect(second).not.toContain('Building Toolscope');
    expect(second).toContain('server started');
    expect(builds()).toBe(1);
  });

  it('builds again when a source or the lock file changes, or an output is missing', () => {
    fs.writeFileSync(path.join(project, 'src/server/main.ts'), 'export const version = 2;\n');
    expect(npmStart()).toContain('Building Toolscope');
    expect(builds()).toBe(2);

    fs.writeFileSync(path.join(project, 'package-lock.json'), '{"lockfileVersion": 3, "packages": {}}\n');
    expect(npmStart()).toContain('Building Toolscope');
    expect(builds()).toBe(3);

    fs.rmSync(path.join(project, 'dist/client/index.html'));
    expect(npmStart()).toContain('Building Toolscope');
    expect(builds()).toBe(4);

    expect(npmStart()).toContain('not rebuilding');
    expect(builds()).toBe(4);
  });

  it('never counts a failed build as current', () => {
    fs.writeFileSync(
      path.join(project, 'fake-build.js'),
      "require('node:fs').appendFileSync('builds.log', 'failed\\n'); process.exit(3);",
    );
    fs.writeFileSync(path.join(project, 'src/server/main.ts'), 'export const version = 3;\n');
    const failed = spawnSync('npm', ['start'], { cwd: project, encoding: 'utf8' });
    expect(failed.status).not.toBe(0);
    expect(failed.stdout + failed.stderr).toContain('Build failed');
    // The outputs of build 4 are still there, but they are not what version 3 would build.
    const again = spawnSync('npm', ['start'], { cwd: project, encoding: 'utf8' });
    expect(again.stdout + again.stderr).toContain('Building Toolscope');
    expect(builds()).toBe(6);
  });
});
