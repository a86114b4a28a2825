import type { FastifyInstance } from 'fastify';
import { withUpstreamClient, describeUpstreamError } from '../../monitor/upstreamClient';
import { decryptCredentials } from '../../data/servers/credentials';
import type { ServerRow } from '../../data/servers/mapper';
import { recordHealth } from '../../data/servers/store';

export interface ProbeOutcome {
  healthy: boolean;
  latencyMs: number | null;
  error: string | null;
}

const PROBE_TIMEOUT_MS = 10_000;

/**
 * One bounded MCP probe (initialize + ping with the official client over the guarded outbound
 * client), stored on the server row. Used by POST …/health when no health monitor is running.
 */
export async function probeAndRecordHealth(app: FastifyInstance, row: ServerRow): Promise<ProbeOutcome> {
  const started = performance.now();
  let outcome: ProbeOutcome;
  try {
    await withUpstreamClient(
      {
        url: row.url,
        transport: row.transport === 'sse' ? 'sse' : 'streamable-http',
        headers: await app.upstreamTokens.headersFor(
          row.id,
          await app.workspaceKeys.headersFor(
            row.workspace_id,
            decryptCredentials(row.credentials_enc, app.config.secret),
            row.url,
          ),
        ),
      },
      app.outbound.fetch,
      Math.min(PROBE_TIMEOUT_MS, app.config.upstreamTimeoutMs),
      async (session) => {
        await session.client.ping({ timeout: session.remainingMs() });
      },
    );
    outcome = { healthy: true, latencyMs: Math.round(performance.now() - started), error: null };
  } catch (error) {
    outcome = { healthy: false, latencyMs: null, error: describeUpstreamError(error) };
  }
  await recordHealth(app.db, row.id, outcome.healthy, outcome.error);
  return outcome;
}
