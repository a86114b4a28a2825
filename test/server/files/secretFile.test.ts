import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../../src/server/config';
import { loadOrCreateSecret } from '../../../src/server/db/secret';

// The secret that signs access tokens and encrypts stored credentials, kept in the data folder when
// TOOLSCOPE_SECRET is not set: written whole or not at all, and a damaged one stops the start
// rather than signing tokens with what is left of it (an empty file read back as an empty key).
describe('the secret kept in the data folder', () => {
  let dataDir: string;
  const file = () => path.join(dataDir, 'secret.key');
  beforeEach(() => {
    dataDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toolscope-secret-')), 'data');
  });
  afterEach(() => fs.rmSync(path.dirname(dataDir), { recursive: true, force: true }));

  it('is made once, whole, and read back the same at every start; nothing else is left in the folder', () => {
    const secret = loadOrCreateSecret(dataDir);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(fs.readFileSync(file(), 'utf8')).toBe(secret);
    expect(loadOrCreateSecret(dataDir)).toBe(secret);
    expect(fs.readdirSync(dataDir)).toEqual(['secret.key']);
  });

  it('keeps a secret already there (another process made it first) and does not write over it', () => {
    fs.mkdirSync(dataDir, { recursive: true });
    const theirs = 'k'.repeat(64);
    fs.writeFileSync(file(), theirs);
    expect(loadOrCreateSecret(dataDir)).toBe(theirs);
    expect(fs.readFileSync(file(), 'utf8')).toBe(theirs);
  });

  it.each([
    ['empty', '', 'is empty'],
    ['cut short', 'abc123\n', 'is cut short (6 characters)'],
  ])(
    'refuses to start with a secret file that is %s, says what to do, and leaves the file as it is',
    (_, content, said) => {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(file(), content);
      let thrown: unknown;
      try {
        loadOrCreateSecret(dataDir);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message).toContain(`The secret in ${file()} ${said}`);
      expect((thrown as Error).message).toContain('set TOOLSCOPE_SECRET');
      expect(fs.readFileSync(file(), 'utf8')).toBe(content);
    },
  );
});
