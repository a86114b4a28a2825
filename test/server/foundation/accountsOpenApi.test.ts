// Building the app and its database takes seconds on a loaded machine.
jest.setTimeout(60_000);

import { buildTestApp, type TestApp } from '../helpers/testApp';
import { engineName } from '../helpers/testDatabase';

// The OpenAPI document at /api/docs is generated from the contract schemas the routes validate
// with, so what it shows is what the server enforces.
describe(`OpenAPI document of the accounts, workspaces, billing and health routes (${engineName})`, () => {
  let t: TestApp;
  let doc: {
    paths: Record<
      string,
      Record<
        string,
        {
          security?: unknown[];
          requestBody?: {
            content: Record<string, { schema: { properties?: Record<string, unknown>; required?: string[] } }>;
          };
          responses: Record<string, unknown>;
        }
      >
    >;
  };
  beforeAll(async () => {
    t = await buildTestApp();
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(() => t.close());

  it.each([
    ['post', '/api/v1/auth/register'],
    ['post', '/api/v1/auth/login'],
    ['post', '/api/v1/auth/logout'],
    ['post', '/api/v1/auth/refresh'],
    ['post', '/api/v1/auth/forgot-password'],
    ['post', '/api/v1/auth/reset-password'],
    ['post', '/api/auth/oauth/token'],
    ['get', '/api/v1/users/me'],
    ['get', '/api/v1/users/preferences'],
    ['put', '/api/v1/users/preferences'],
    ['get', '/api/v1/workspaces'],
    ['post', '/api/v1/workspaces'],
    // Registered as '/' under the workspace prefix: the document lists the trailing-slash form.
    ['get', '/api/v1/workspaces/{workspaceId}/'],
    ['get', '/api/v1/billing/can-create-workspace'],
    ['get', '/api/v1/billing/workspace-limits'],
    ['get', '/api/v1/billing/subscription'],
    ['put', '/api/v1/billing/subscription'],
    ['get', '/api/health'],
    ['get', '/api/v1/services/health'],
    ['get', '/api/v1/services/{name}/health'],
    ['get', '/api/v1/system/health'],
  ])('documents %s %s', (method, path) => {
    expect(doc.paths).toHaveProperty([path, method]);
  });

  it('documents the register body fields and the error answers', () => {
    const register = doc.paths['/api/v1/auth/register'].post;
    const schema = register.requestBody!.content['application/json'].schema;
    expect(Object.keys(schema.properties!)).toEqual([
      'email',
      'password',
      'passwordConfirmation',
      'firstName',
      'lastName',
    ]);
    expect(Object.keys(register.responses)).toEqual(expect.arrayContaining(['201', '400', '409']));
  });

  it('documents the OAuth token endpoint as form-encoded', () => {
    expect(Object.keys(doc.paths['/api/auth/oauth/token'].post.requestBody!.content)).toEqual([
      'application/x-www-form-urlencoded',
    ]);
  });

  it('marks sign-in and health as needing no bearer token', () => {
    expect(doc.paths['/api/v1/auth/login'].post.security).toEqual([]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/users/me'].get.security).toBeUndefined();
  });
});
