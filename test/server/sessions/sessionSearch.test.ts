import { likePattern, toSearchQuery } from '../../../src/server/modules/sessions/sessionSearch';

describe('session text search query', () => {
  it('turns every part of every typed word into a required prefix', () => {
    expect(toSearchQuery('read_file')).toBe("'read':* & 'file':*");
    expect(toSearchQuery('  Quarter  REV ')).toBe("'quarter':* & 'rev':*");
    expect(toSearchQuery('/etc/ho /etc')).toBe("'etc':* & 'ho':*");
    expect(toSearchQuery('résumé')).toBe("'résumé':*");
  });

  it('cannot be broken out of by quotes or operators, and yields nothing for punctuation only', () => {
    expect(toSearchQuery("a' | !b & c:*")).toBe("'a':* & 'b':* & 'c':*");
    expect(toSearchQuery('%% ::')).toBeNull();
    expect(likePattern('100%_\\')).toBe('%100\\%\\_\\\\%');
  });
});
