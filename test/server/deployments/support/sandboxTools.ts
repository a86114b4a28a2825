import { execFileSync } from 'node:child_process';

/**
 * Deployments run only in bubblewrap's sandbox. In CI (CI=true) a missing bwrap fails the suite
 * loudly (CI must install the Debian package bubblewrap); on a developer's machine the suite is
 * skipped with the reason printed.
 */
export function sandboxAvailable(suite: string): boolean {
  try {
    execFileSync('bwrap', ['--version'], { stdio: 'ignore' });
    execFileSync('slirp4netns', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    const reason = `${suite} needs bubblewrap and slirp4netns (Debian packages: apt-get install -y bubblewrap slirp4netns)`;
    if (process.env.CI === 'true') throw new Error(`MISSING IN CI: ${reason}`);
    console.warn(`SKIPPED: ${reason}`);
    return false;
  }
}
