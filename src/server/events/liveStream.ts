import type { ServerResponse } from 'node:http';
import { publicBase, withPublicBase } from '../http/publicUrl';
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LiveMessageTypes, type LiveMessage } from '../../contract/live';

// GET /api/v1/workspaces/:workspaceId/platform/sse?token=… — the per-workspace live stream.
// It sits behind the same authenticate + workspace guards as every workspace route (the token
// may come from the query string only here: EventSource cannot send headers). Every bus message
// of the workspace is written as one `data: <json>` event; per-user messages (notifications)
// reach only their recipient. Writing never waits: a client that stops reading lets its socket
// buffer grow, and past MAX_BUFFERED_BYTES it is dropped — publishers never feel a slow reader.
export const HEARTBEAT_INTERVAL_MS = 25_000;
export const MAX_BUFFERED_BYTES = 1024 * 1024;

const LiveStreamParams = z.object({ workspaceId: z.string() });
// Declared so the validator accepts it; it is read by the guard and never echoed or logged.
const LiveStreamQuery = z.object({ token: z.string().optional() });

const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // Tells nginx-style reverse proxies not to buffer the stream.
  'x-accel-buffering': 'no',
};

interface OpenStream {
  end(): void;
}

/** One SSE event; the per-user routing field stays on the server. */
export function formatLiveEvent(message: LiveMessage): string {
  const visible = { ...message };
  delete visible.userId;
  return `data: ${JSON.stringify(visible)}\n\n`;
}

export const liveStreamRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const open = new Set<OpenStream>();

  // End every stream before the server stops listening, or an open SSE response would keep
  // graceful shutdown waiting for clients that never hang up.
  app.addHook('preClose', () => {
    for (const stream of [...open]) stream.end();
    return Promise.resolve();
  });

  app.get(
    '/platform/sse',
    {
      config: { allowQueryToken: true },
      // The URL carries the access token: keep this route out of the per-request info logs.
      logLevel: 'warn',
      schema: {
        tags: ['live'],
        summary: 'Live stream of the workspace (server-sent events; the access token may be given as ?token=)',
        params: LiveStreamParams,
        querystring: LiveStreamQuery,
      },
    },
    async (request, reply) => {
      const { workspaceId } = request.params;
      const userId = request.userId;
      const raw: ServerResponse = reply.raw;
      reply.hijack();
      raw.writeHead(200, SSE_HEADERS);
      raw.socket?.setNoDelay(true);

      let ended = false;
      const write = (chunk: string) => {
        if (ended) return;
        if (raw.writableLength + chunk.length > MAX_BUFFERED_BYTES) {
          // The client is not reading: drop it rather than buffer without bound.
          stream.end(true);
          return;
        }
        raw.write(chunk);
      };
      const heartbeat = () =>
        write(formatLiveEvent({ type: LiveMessageTypes.heartbeat, data: {}, at: new Date().toISOString() }));
      // The guards ran once, at connect. A stream outlives its token and may outlive the caller's
      // membership: it ends when the token expires (the client reconnects with its refreshed one)
      // and, checked with each heartbeat, when the caller is no longer a member of the workspace.
      const stillMember = async () => {
        const rows = await app.db.query('select 1 from workspace_members where workspace_id = $1 and user_id = $2', [
          workspaceId,
          userId,
        ]);
        if (rows.length === 0) stream.end();
      };
      const tick = () => {
        heartbeat();
        stillMember().catch(() => undefined); // a failed check keeps the stream; the next one decides
      };

      const base = publicBase(app.config, request);
      const signIn = request.accessTokenSid;
      const unsubscribe = app.bus.subscribe(workspaceId, (message) => {
        if (message.userId !== undefined && message.userId !== userId) return;
        if (message.type === LiveMessageTypes.accessRevoked) {
          // Removed, signed out or password changed (events/accessRevocation.ts): close now, on
          // whichever instance this stream is. The message itself is never forwarded.
          const revoked = message.data as { sid?: string };
          if (revoked.sid === undefined || revoked.sid === signIn) stream.end();
          return;
        }
        write(formatLiveEvent(withPublicBase(message, base)));
      });
      const timer = setInterval(tick, HEARTBEAT_INTERVAL_MS);
      timer.unref();
      const expiry = setTimeout(() => stream.end(), Math.max(0, request.accessTokenExpiresAt - Date.now()));
      expiry.unref();

      const stream = {
        end(abort = false) {
          if (ended) return;
          ended = true;
          clearInterval(timer);
          clearTimeout(expiry);
          unsubscribe();
          open.delete(stream);
          if (abort) raw.destroy();
          else raw.end();
        },
      };
      open.add(stream);
      raw.on('close', () => stream.end());
      raw.on('error', () => stream.end(true));
      heartbeat();
    },
  );
  return Promise.resolve();
};
