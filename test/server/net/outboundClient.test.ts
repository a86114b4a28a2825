import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  createOutboundClient,
  OutboundBlockedError,
  type OutboundClient,
} from '../../../src/server/net/outboundClient';
import { classifyAddress } from '../../../src/server/net/addressPolicy';

// The one guarded outbound client: metadata and link-local always refused (in every spelling),
// checked after DNS and on every redirect; loopback/private only when the operator allows them.
const METADATA_SPELLINGS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/', // decimal
  'http://0xa9fea9fe/', // hex
  'http://0251.0376.0251.0376/', // octal
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://169.254.169.254./', // trailing dot
  'http://169.254.0.1:8080/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.google.internal./computeMetadata/v1/',
  'http://[::ffff:169.254.169.254]/', // IPv4-mapped IPv6
  'http://[::ffff:a9fe:a9fe]/',
  'http://[64:ff9b::a9fe:a9fe]/', // NAT64
  'http://[fe80::1]/', // IPv6 link-local
  'http://[febf::1]/',
  'http://[fd00:ec2::254]/', // AWS IPv6 metadata
  'http://100.100.100.200/', // Alibaba metadata
];
const PRIVATE = [
  'http://127.0.0.1:1/',
  'http://0x7f.1/',
  'http://10.1.2.3/',
  'http://192.168.1.10/',
  'http://172.20.0.1/',
  'http://[::1]/',
  'http://[fd12::1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://0.0.0.0/',
];

function loopbackServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => {
          server.closeAllConnections();
          return new Promise((r) => server.close(() => r()));
        },
      }),
    ),
  );
}

describe('guarded outbound client', () => {
  let open: OutboundClient;
  let closed: OutboundClient;
  beforeAll(() => {
    open = createOutboundClient({ allowPrivateUpstreams: true, upstreamTimeoutMs: 2_000 });
    closed = createOutboundClient({ allowPrivateUpstreams: false, upstreamTimeoutMs: 2_000 });
  });
  afterAll(async () => {
    await open.close();
    await closed.close();
  });

  it.each(METADATA_SPELLINGS)('always refuses %s', async (url) => {
    await expect(open.assertUrlAllowed(url)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(open.request(url)).rejects.toBeInstanceOf(OutboundBlockedError);
    await expect(open.fetch(url)).rejects.toBeInstanceOf(OutboundBlockedError);
  });

  it.each(['ftp://example.com/', 'file:///etc/passwd', 'gopher://127.0.0.1/', 'http://user:pw@127.0.0.1/'])(
    'refuses %s',
    async (url) => {
      await expect(open.assertUrlAllowed(url)).rejects.toBeInstanceOf(OutboundBlockedError);
    },
  );

  it.each(PRIVATE)('allows %s by default and refuses it when private upstreams are off', async (url) => {
    await expect(open.assertUrlAllowed(url)).resolves.toBeUndefined();
    await expect(closed.assertUrlAllowed(url)).rejects.toThrow(/Private and loopback addresses are not allowed/);
  });

  it('classifies addresses by range', () => {
    expect(classifyAddress('8.8.8.8')).toBe('allowed');
    expect(classifyAddress('2606:4700::1111')).toBe('allowed');
    expect(classifyAddress('169.254.169.254')).toBe('forbidden');
    expect(classifyAddress('::ffff:10.0.0.1')).toBe('private');
    expect(classifyAddress('not-an-ip')).toBe('forbidden');
  });

  it('checks the address a name resolves to, at connect time too', async () => {
    const server = await loopbackServer((_req, res) => res.end('hello'));
    try {
      const port = new URL(server.url).port;
      // "localhost" is no IP literal: only the resolved 127.0.0.1 / ::1 gives it away.
      await expect(closed.assertUrlAllowed(`http://localhost:${port}/`)).rejects.toBeInstanceOf(OutboundBlockedError);
      await expect(closed.request(`http://localhost:${port}/`)).rejects.toBeInstanceOf(OutboundBlockedError);
      await expect(closed.fetch(`http://localhost:${port}/`)).rejects.toThrow();
      const allowed = await open.request(`http://localhost:${port}/`);
      expect(Buffer.concat(await allowed.body.toArray()).toString('utf8')).toBe('hello');
    } finally {
      await server.close();
    }
  });

  it('checks every redirect and follows the allowed ones', async () => {
    const server = await loopbackServer((req, res) => {
      if (req.url === '/to-metadata')
        return void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      if (req.url === '/to-decimal') return void res.writeHead(307, { location: 'http://2852039166/' }).end();
      if (req.url === '/hop') return void res.writeHead(301, { location: '/final' }).end();
      res.end(`at ${req.url}`);
    });
    try {
      await expect(open.fetch(`${server.url}/to-metadata`)).rejects.toBeInstanceOf(OutboundBlockedError);
      await expect(open.fetch(`${server.url}/to-decimal`)).rejects.toBeInstanceOf(OutboundBlockedError);
      const followed = await open.fetch(`${server.url}/hop`);
      expect(await followed.text()).toBe('at /final');
    } finally {
      await server.close();
    }
  });

  it('bounds the response size', async () => {
    const server = await loopbackServer((_req, res) => res.end('x'.repeat(5000)));
    try {
      await expect(open.request(server.url, { maxResponseBytes: 1000 })).rejects.toThrow(/larger than 1000 bytes/);
    } finally {
      await server.close();
    }
  });
});
