import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ProxyReply, ProxyRequest } from './exchangeIo';
import type { Config } from '../config';
import { isLoopbackHost } from '../net/privateNetworkPolicy';
import type { HostRule, ProxyContext } from './context';
import type { UpstreamTarget } from './upstreamDirectory';

// Browsers at a proxy URL (issue 37 item 4). Two rules, as the MCP specification asks of every
// Streamable HTTP server ("validate the Origin header … to prevent DNS rebinding"):
// - **Host**: a page of evil.example.com whose name the attacker points at 127.0.0.1 sends
//   `Host: evil.example.com` — and its own Origin, which a same-origin check takes for ours. The
//   proxy rewrites Host towards the upstream, so the upstream's own check never sees it: the
//   proxy checks it here, against the names the operator serves under (config.allowedHosts).
// - **Origin**: no Origin (an agent, curl) or Toolscope's own → as before. Any other origin only
//   when the server lists it (`allowedOrigins`, set per server): then the answer carries CORS
//   headers, and the preflight (OPTIONS) is answered — a browser MCP client such as the
//   Inspector's web UI works through the proxy as it does directly. Anything else → 403.

/** What a browser MCP client sends (the transport's headers, the platform key, trace context). */
const ALLOWED_REQUEST_HEADERS = [
  'authorization',
  'content-type',
  'accept',
  'mcp-session-id',
  'mcp-protocol-version',
  'mcp-method',
  'mcp-name',
  'last-event-id',
  'x-toolscope-key',
  'traceparent',
  'tracestate',
].join(', ');
/** What it must be able to read of an answer. */
const EXPOSED_HEADERS = [
  'mcp-session-id',
  'mcp-protocol-version',
  'www-authenticate',
  'retry-after',
  'content-type',
].join(', ');
/** How long a browser may reuse a preflight's answer. */
const PREFLIGHT_MAX_AGE_S = 600;

/** The request's host name, lower case, without port or IPv6 brackets. */
function hostNameOf(request: ProxyRequest): string {
  const host = request.host.toLowerCase();
  if (host.startsWith('[')) return host.slice(1, host.indexOf(']'));
  const colon = host.lastIndexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * The operator's list (TOOLSCOPE_ALLOWED_HOSTS) and the public URL's host; without either, an
 * instance bound to loopback answers under loopback names only (what a DNS-rebinding page
 * cannot use), and one bound elsewhere under any name (it cannot know its names: the operator
 * sets TOOLSCOPE_PUBLIC_URL or the list, docs/security.md).
 */
export function hostRule(config: Pick<Config, 'allowedHosts' | 'publicUrl' | 'host'>): HostRule {
  if (config.allowedHosts.includes('*')) return null;
  const names = new Set(config.allowedHosts.map((name) => name.replace(/^\[|\]$/g, '')));
  if (config.publicUrl) names.add(new URL(config.publicUrl).hostname.replace(/^\[|\]$/g, ''));
  // Loopback names are always this machine's own: no page of another site can send them (the
  // rebinding attack needs a name the attacker's DNS answers). The public URL names this instance
  // as the list does: set either, and any other name is refused.
  if (names.size === 0 && !isLoopbackHost(config.host)) return null;
  return (name) => names.has(name) || isLoopbackHost(name);
}

export function isHostAllowed(request: ProxyRequest, rule: HostRule): boolean {
  return rule === null || rule(hostNameOf(request));
}

/** No Origin, or Toolscope's own (its public URL, or the origin the request came to). */
function isOwnOrigin(request: ProxyRequest, origin: string | undefined, publicUrl: string | undefined): boolean {
  if (origin === undefined) return true;
  if (publicUrl && origin === new URL(publicUrl).origin) return true;
  return origin === `${request.protocol}://${request.host}`;
}

/** Whether a foreign origin is one the server lists (origins compare in lower case, as stored). */
function isListedOrigin(origin: string | undefined, target: UpstreamTarget): origin is string {
  return origin !== undefined && target.allowedOrigins.includes(origin.toLowerCase());
}

function corsHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-expose-headers': EXPOSED_HEADERS,
    vary: 'Origin',
  };
}

function refuse(reply: ProxyReply, what: 'Host' | 'Origin'): null {
  void reply.status(403).send({ message: `${what} not allowed`, code: 'forbidden' });
  return null;
}

/**
 * Before the target is known: the Host, and an Origin that can only pass through the server's
 * list. Returns false after answering 403; 'listed' when the target's list must decide.
 */
export function checkBrowserBeforeTarget(
  ctx: ProxyContext,
  request: ProxyRequest,
  reply: ProxyReply,
): boolean | 'listed' {
  if (!isHostAllowed(request, ctx.allowedHosts)) {
    refuse(reply, 'Host');
    return false;
  }
  return isOwnOrigin(request, request.headers.origin, ctx.app.config.publicUrl) ? true : 'listed';
}

/**
 * With the target known: a foreign origin the server lists gets the CORS headers (set on the raw
 * response, so an answer relayed from the upstream carries them too); any other → 403.
 */
export function admitListedOrigin(request: ProxyRequest, reply: ProxyReply, target: UpstreamTarget): boolean {
  const origin = request.headers.origin;
  if (!isListedOrigin(origin, target)) {
    refuse(reply, 'Origin');
    return false;
  }
  for (const [name, value] of Object.entries(corsHeaders(origin))) reply.raw.setHeader(name, value);
  return true;
}

/** OPTIONS on the proxy routes: the preflight of a listed origin, answered without the upstream. */
export function preflightRoutes(ctx: ProxyContext) {
  return (scope: FastifyInstance): Promise<void> => {
    const options = { logLevel: 'warn' as const, schema: { hide: true } };
    const preflight = async (request: FastifyRequest<{ Params: { proxyKey: string } }>, reply: FastifyReply) => {
      if (!isHostAllowed(request, ctx.allowedHosts)) return refuse(reply, 'Host');
      const target = await ctx.directory.get(request.params.proxyKey).catch(() => null);
      if (!target) return reply.status(404).send({ message: 'Unknown proxy URL', code: 'not_found' });
      const origin = request.headers.origin;
      if (!isListedOrigin(origin, target)) return refuse(reply, 'Origin');
      return reply
        .status(204)
        .headers({
          ...corsHeaders(origin),
          'access-control-allow-methods': 'GET, POST, DELETE',
          'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
          'access-control-max-age': String(PREFLIGHT_MAX_AGE_S),
        })
        .send();
    };
    for (const path of ['/mcp/:proxyKey', '/mcp/:proxyKey/sse', '/mcp/:proxyKey/messages'])
      scope.options(path, options, preflight);
    return Promise.resolve();
  };
}
