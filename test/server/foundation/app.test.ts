import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';
import { DEFAULT_FLAGS } from '../../../src/contract/flags';

describe(`app foundation (${engineName})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ flags: { ...DEFAULT_FLAGS, show_upgrade_pro: true } });
  });
  afterAll(() => t.close());

  it('serves the public config with flags and plans', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/config' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.flags.show_upgrade_pro).toBe(true);
    expect(body.plans.map((p: { id: string }) => p.id)).toEqual(['starter', 'pro', 'enterprise']);
  });

  it('answers unknown API routes with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'not_found' });
  });
});
