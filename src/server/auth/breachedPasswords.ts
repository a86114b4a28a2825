import fs from 'node:fs';
import path from 'node:path';

// Passwords that appear in breach corpora are the first ones a credential-stuffing or spraying
// attacker tries; sign-up and password reset refuse them. The list is the top 100,000 of a public
// breach compilation, bundled as a data file (assets/README.md says where it comes from), read
// once on first use into a Set (~100k short strings, a few MB of memory).
const FILE = 'assets/breached-passwords-top-100k.txt';

export const BREACHED_PASSWORD_TEXT = 'This password appears in lists of breached passwords; choose another';

let breached: Set<string> | undefined;

/** The package root holding assets/: the same code runs from src/ (tests) and dist/node/ (built). */
function findListFile(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    const candidate = path.join(dir, FILE);
    if (fs.existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error(`${FILE} not found above ${__dirname}`);
}

function load(): Set<string> {
  breached ??= new Set(
    fs
      .readFileSync(findListFile(), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean),
  );
  return breached;
}

/** True when the password, as typed or in lower case, is in the bundled breached list. */
export function isBreachedPassword(password: string): boolean {
  const list = load();
  return list.has(password) || list.has(password.toLowerCase());
}

/** How many passwords the list holds (for docs and the health of the bundle). */
export function breachedPasswordCount(): number {
  return load().size;
}
