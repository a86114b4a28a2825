import type { ProxyReply, ProxyRequest } from './exchangeIo';
import type { SessionOrigin } from '../recording/recorder';
import { authorizeAgent } from './accessHooks';
import type { ProxyContext } from './context';
import { admitListedOrigin, checkBrowserBeforeTarget } from './browserAccess';
import { DirectoryUnavailableError, type UpstreamTarget } from './upstreamDirectory';

// What both transports do first with /mcp/{proxyKey}/…: check the Host and the Origin, find the server behind
// the key, and let the agent's platform key in (or answer the refusal).

export function findTarget(
  ctx: ProxyContext,
  request: ProxyRequest,
  reply: ProxyReply,
  key: string,
): Promise<UpstreamTarget | null> | null {
  // The Host, and the Origin: a foreign one only when the server lists it (browserAccess.ts).
  const browser = checkBrowserBeforeTarget(ctx, request, reply);
  if (browser === false) return null;
  return ctx.directory.get(key).then(
    (target) => {
      if (!target) void reply.status(404).send({ message: 'Unknown proxy URL', code: 'not_found' });
      else if (browser === 'listed' && !admitListedOrigin(request, reply, target)) return null;
      // The agent's platform key (accessHooks.ts): refused → answered here.
      else if (!authorizeAgent(ctx, request, reply, target)) return null;
      return target;
    },
    (error: unknown) => {
      if (!(error instanceof DirectoryUnavailableError)) throw error;
      // A key first seen while the database is away: say "try again", not a generic 500.
      void reply
        .status(503)
        .header('retry-after', '2')
        .send({ message: 'Service temporarily unavailable', code: 'service_unavailable' });
      return null;
    },
  );
}

export function originOf(target: UpstreamTarget): SessionOrigin {
  return { workspaceId: target.workspaceId, serverId: target.serverId, serverName: target.serverName };
}
