import { sendApiRequest, buildUrl } from '../../../src/client/api/request';
import { installFakeFetch, jsonResponse, textResponse, type FakeFetch } from '../helpers/fakeFetch';

let fake: FakeFetch;
beforeEach(() => {
  fake = installFakeFetch();
});
afterEach(() => fake.restore());

const send = (request: Parameters<typeof sendApiRequest>[0]) => sendApiRequest(request, { accessToken: 'token' });

describe("error texts of SPEC §8: 'API Error {status}: {message}'", () => {
  it('takes the message from body.message', async () => {
    fake.on('GET /x', jsonResponse({ message: 'Server not found', code: 'not_found' }, 404));
    const result = await send('/x');
    expect(result.error).toMatchObject({ status: 404, message: 'API Error 404: Server not found', code: 'not_found' });
  });

  it('falls back to body.error', async () => {
    fake.on('GET /x', jsonResponse({ error: 'Forbidden workspace' }, 403));
    expect((await send('/x')).error?.message).toBe('API Error 403: Forbidden workspace');
  });

  it('falls back to the raw body', async () => {
    fake.on('GET /x', textResponse('Bad Gateway from upstream', 502));
    expect((await send('/x')).error?.message).toBe('API Error 502: Bad Gateway from upstream');
  });

  it('uses the raw JSON text when it has neither message nor error', async () => {
    fake.on('GET /x', textResponse('{"detail":"nope"}', 400));
    expect((await send('/x')).error?.message).toBe('API Error 400: {"detail":"nope"}');
  });

  it("says 'Unknown error' when the body is empty", async () => {
    fake.on('GET /x', textResponse('', 500));
    expect((await send('/x')).error?.message).toBe('API Error 500: Unknown error');
  });

  it('keeps the field errors the server names', async () => {
    fake.on(
      'POST /x',
      jsonResponse(
        { message: 'Invalid input', code: 'validation_failed', fields: { email: 'Enter a valid email address' } },
        400,
      ),
    );
    const result = await send({ url: '/x', method: 'POST', body: { email: 'x' } });
    expect(result.error).toMatchObject({
      fields: { email: 'Enter a valid email address' },
      serverMessage: 'Invalid input',
    });
  });

  it('reads Retry-After on a 429 and only reports it', async () => {
    fake.on('GET /x', jsonResponse({ message: 'Too many requests' }, 429, { 'Retry-After': '30' }));
    const result = await send('/x');
    expect(result.error).toMatchObject({
      status: 429,
      message: 'API Error 429: Too many requests',
      retryAfterSeconds: 30,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a network failure without a status', async () => {
    fake.on('GET /x', () => Promise.reject(new TypeError('Failed to fetch')));
    expect((await send('/x')).error).toEqual({ status: 'FETCH_ERROR', message: 'Failed to fetch' });
  });
});

describe('success bodies', () => {
  it('parses JSON', async () => {
    fake.on('GET /x', jsonResponse({ a: 1 }));
    expect(await send('/x')).toEqual({ data: { a: 1 } });
  });

  it("rejects a success body that is not JSON with 'Invalid JSON in response'", async () => {
    fake.on('GET /x', textResponse('<html>oops</html>', 200));
    expect((await send('/x')).error).toEqual({ status: 'PARSING_ERROR', message: 'Invalid JSON in response' });
  });

  it('returns the status for an empty body', async () => {
    fake.on('POST /x', textResponse('', 202));
    expect(await send({ url: '/x', method: 'POST', body: {} })).toEqual({ data: { status: 202 } });
  });

  it('returns nothing for an empty DELETE answer', async () => {
    fake.on('DELETE /x', new Response(null, { status: 204 }));
    expect(await send({ url: '/x', method: 'DELETE' })).toEqual({ data: null });
  });
});

describe('request shape', () => {
  it('sends JSON bodies with their content type and the bearer header', async () => {
    fake.on('PUT /x', jsonResponse({}));
    await send({ url: '/x', method: 'PUT', body: { name: 'n' } });
    const [request] = fake.requests;
    expect(request.body).toEqual({ name: 'n' });
    expect(request.headers.get('Content-Type')).toBe('application/json');
    expect(request.headers.get('Authorization')).toBe('Bearer token');
  });

  it('builds query strings, leaving out empty values', () => {
    expect(
      buildUrl('/api/v1/notifications', {
        workspaceId: 'w1',
        limit: 10,
        isArchived: false,
        cursor: undefined,
        x: null,
      }),
    ).toBe('/api/v1/notifications?workspaceId=w1&limit=10&isArchived=false');
  });
});
