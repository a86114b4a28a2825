import { SessionSeal } from '../../../src/server/proxy/sessionSeal';

// The sealed session id: what any instance with the shared secret can open, and nobody can read
// or forge — nor carry to another server's proxy URL.
describe('sealed session ids', () => {
  const secret = 's'.repeat(40);
  const claims = {
    recordedSessionId: '6f1c2b8e-0000-4000-8000-000000000001',
    upstreamSessionId: 'upstream-session-42',
    startedAtMs: 1_795_000_000_000,
  };

  it('opens on another instance with the same secret, and is the same id every time', () => {
    const token = new SessionSeal(secret).seal('server-a', claims);
    expect(token.startsWith('ts1.')).toBe(true);
    expect(token).not.toContain('upstream-session-42');
    expect(new SessionSeal(secret).seal('server-a', claims)).toBe(token);
    expect(new SessionSeal(secret).open('server-a', token)).toEqual(claims);
  });

  it('refuses an id made with another secret, for another server, or altered', () => {
    const token = new SessionSeal(secret).seal('server-a', claims);
    expect(new SessionSeal('t'.repeat(40)).open('server-a', token)).toBeNull();
    expect(new SessionSeal(secret).open('server-b', token)).toBeNull();
    const middle = Math.floor(token.length / 2);
    const altered = token.slice(0, middle) + (token[middle] === 'A' ? 'B' : 'A') + token.slice(middle + 1);
    expect(new SessionSeal(secret).open('server-a', altered)).toBeNull();
    expect(new SessionSeal(secret).open('server-a', 'ts1.')).toBeNull();
    expect(new SessionSeal(secret).open('server-a', 'plain-upstream-id')).toBeNull();
  });
});
