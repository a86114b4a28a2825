import { binaryArray } from '../../../src/server/db/binaryArrays';
import { engineName, openTestDatabase, type TestDatabase } from '../helpers/testDatabase';

jest.setTimeout(60_000);

// The recorder sends a batch's tool calls as binary arrays (one per column). What the database
// reads back must be exactly what a text parameter would have given, on both engines (PGlite in
// its worker thread, as the server runs it).
describe(`binary array parameters (${engineName})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.drop());

  const roundTrip = async <T>(type: string, values: unknown[], element: string = type): Promise<T[]> =>
    (
      await database.db.query<{ v: T }>(`select v from unnest($1::${type}[]) with ordinality as x(v, n) order by n`, [
        binaryArray(element as never, values),
      ])
    ).map((row) => row.v);

  it('reads uuids, ints and booleans as sent, NULLs included', async () => {
    expect(
      await roundTrip('uuid', ['0b8f5c1e-3d7a-4f2b-9c1d-2e3f4a5b6c7d', null, 'FFFFFFFF-0000-4000-8000-000000000001']),
    ).toEqual(['0b8f5c1e-3d7a-4f2b-9c1d-2e3f4a5b6c7d', null, 'ffffffff-0000-4000-8000-000000000001']);
    expect(await roundTrip('int', [0, -1, 2147483647, -2147483648, null], 'int4')).toEqual([
      0,
      -1,
      2147483647,
      -2147483648,
      null,
    ]);
    expect(await roundTrip('bool', [true, false, null])).toEqual([true, false, null]);
  });

  it('reads timestamps to the millisecond, before and after 2000', async () => {
    const times = [
      '2026-11-21T12:34:56.789Z',
      '1999-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2000-01-01T00:00:00.001Z',
    ];
    const read = await roundTrip<Date | null>('timestamptz', [...times, Date.parse('2031-02-03T04:05:06.007Z'), null]);
    expect(read.map((date) => date?.toISOString() ?? null)).toEqual([...times, '2031-02-03T04:05:06.007Z', null]);
  });

  it('reads text byte for byte, with NUL and lone surrogates as U+FFFD', async () => {
    const texts = ['plain', '', 'é€ 😀 ☃', 'nul\0here', 'lone\ud800half', 'x'.repeat(100_000), null];
    expect(await roundTrip('text', texts)).toEqual([
      'plain',
      '',
      'é€ 😀 ☃',
      'nul\ufffdhere',
      'lone\ufffdhalf',
      'x'.repeat(100_000),
      null,
    ]);
  });

  it('reads jsonb from its JSON text', async () => {
    expect(await roundTrip('jsonb', ['{"a":[1,2,{"b":"é"}]}', 'null', null])).toEqual([
      { a: [1, 2, { b: 'é' }] },
      null,
      null,
    ]);
  });

  it('refuses values of the wrong kind before anything is sent', () => {
    expect(() => binaryArray('uuid', ['not-a-uuid'])).toThrow('Not a uuid');
    expect(() => binaryArray('uuid', ['0b8f5c1e-3d7a-4f2b-9c1d-2e3f4a5b6czz'])).toThrow('Not a uuid');
    // U+0130's low seven bits are those of "0": a character beyond ASCII is never a hex digit.
    expect(() => binaryArray('uuid', ['0b8f5c1e-3d7a-4f2b-9c1d-2e3f4a5b6c7d'.replace('0', '\u0130')])).toThrow(
      'Not a uuid',
    );
    expect(() => binaryArray('uuid', ['0b8f5c1e+3d7a-4f2b-9c1d-2e3f4a5b6c7d'])).toThrow('Not a uuid');
    expect(() => binaryArray('timestamptz', ['yesterday'])).toThrow('Not a timestamp');
    expect(() => binaryArray('int4', [1.5])).toThrow('Not an integer');
    expect(() => binaryArray('int4', [Number.NaN])).toThrow('Not an integer');
    expect(() => binaryArray('int4', [2 ** 31])).toThrow(/out of range/);
  });

  it('sends long JSON parameters as bytes and reads them as their text', async () => {
    const value = { text: 'é"\\'.repeat(5_000), list: [1, 2, 3] };
    const text = JSON.stringify(value);
    const [row] = await database.db.query<{ j: unknown; b: unknown; same: boolean }>(
      'select $1::json as j, $2::jsonb as b, $1::json::text = $3 as same',
      [text, value, text],
    );
    expect(row).toEqual({ j: value, b: value, same: true });
    await expect(database.db.query('select $1::jsonb', [`{"a":${'1'.repeat(5_000)}`])).rejects.toThrow(
      /invalid input syntax for type json/,
    );
  });
});
