import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreateExporterBody,
  ExporterDto,
  ExporterListResult,
  ExporterMetrics,
  ExporterTestResult,
  UpdateExporterBody,
} from '../../../contract/telemetry';
import { badRequest, notFound } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import { auditRequest } from '../audit/store';
import { OutboundBlockedError } from '../../net/outboundClient';
import {
  deleteExporter,
  findExporter,
  insertExporter,
  listExporters,
  mergeHeaders,
  openHeaders,
  sealHeaders,
  toExporterDto,
  toExporterMetrics,
  updateExporter,
  type ExporterRow,
} from '../../data/telemetry/store';

// SPEC §7 Telemetry exporters, under /api/v1/workspaces/:workspaceId (membership guard first).
// Members see exporters and their counters (header values masked); owners and admins change and test.
const WorkspaceOnly = z.object({ workspaceId: z.string() });
const OneExporter = z.object({ workspaceId: z.string(), exporterId: z.string() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function assertEndpointAllowed(app: FastifyInstance, endpoint: string): Promise<void> {
  try {
    await app.outbound.assertUrlAllowed(endpoint);
  } catch (error) {
    if (error instanceof OutboundBlockedError)
      throw badRequest(`endpoint: ${error.message}`, { endpoint: error.message });
    throw error;
  }
}

async function loadExporter(app: FastifyInstance, workspaceId: string, exporterId: string): Promise<ExporterRow> {
  const row = UUID.test(exporterId) ? await findExporter(app.db, workspaceId, exporterId) : undefined;
  if (!row) throw notFound('Exporter not found');
  return row;
}

export const telemetryRoutes: FastifyPluginAsync = (scope) => {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const tags = ['telemetry'];
  const secret = app.config.secret;
  const base = '/telemetry/exporters';

  app.get(
    base,
    {
      schema: {
        tags,
        summary: "The workspace's OTLP exporters (header values masked)",
        params: WorkspaceOnly,
        response: { 200: ExporterListResult },
      },
    },
    async (request) => ({ exporters: (await listExporters(app.db, request.params.workspaceId)).map(toExporterDto) }),
  );

  app.post(
    base,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Add an OTLP/HTTP exporter',
        params: WorkspaceOnly,
        body: CreateExporterBody,
        response: { 201: ExporterDto, ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      await assertEndpointAllowed(app, body.endpoint);
      const row = await insertExporter(app.db, request.params.workspaceId, {
        name: body.name,
        endpoint: body.endpoint,
        protocol: body.protocol,
        headerNames: Object.keys(body.headers),
        headersSealed: sealHeaders(body.headers, secret),
        signals: [...new Set(body.signals)],
        samplingRatio: body.samplingRatio,
        enabled: body.enabled,
      });
      await app.telemetry.reload();
      await auditRequest(app.db, request, {
        workspaceId: request.params.workspaceId,
        action: 'exporter.created',
        target: body.name,
        details: { exporterId: row.id, endpoint: hostOf(body.endpoint) },
      });
      reply.status(201);
      return toExporterDto(row);
    },
  );

  app.get(
    `${base}/:exporterId`,
    {
      schema: {
        tags,
        summary: 'One exporter',
        params: OneExporter,
        response: { 200: ExporterDto, ...errorResponses(404) },
      },
    },
    async (request) => toExporterDto(await loadExporter(app, request.params.workspaceId, request.params.exporterId)),
  );

  app.put(
    `${base}/:exporterId`,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Change an exporter',
        params: OneExporter,
        body: UpdateExporterBody,
        response: { 200: ExporterDto, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { workspaceId, exporterId } = request.params;
      const row = await loadExporter(app, workspaceId, exporterId);
      const body = request.body;
      if (body.endpoint) await assertEndpointAllowed(app, body.endpoint);
      // Stored header values (an Authorization, an API key) belong to the endpoint they were set
      // for: a new endpoint gets only the values this request spells out, never masked ones kept
      // from before (docs/security.md, "Secrets stay bound to where they go").
      const repointed = body.endpoint !== undefined && body.endpoint !== row.endpoint;
      const stored = repointed ? {} : openHeaders(row, secret);
      const headers = body.headers ? mergeHeaders(body.headers, stored) : repointed ? {} : undefined;
      const updated = await updateExporter(app.db, workspaceId, exporterId, {
        name: body.name ?? row.name,
        endpoint: body.endpoint ?? row.endpoint,
        protocol: body.protocol ?? row.protocol,
        headerNames: headers ? Object.keys(headers) : row.header_names,
        headersSealed: headers ? sealHeaders(headers, secret) : row.headers_sealed,
        signals: body.signals ? [...new Set(body.signals)] : row.signals,
        samplingRatio: body.samplingRatio ?? row.sampling_ratio,
        enabled: body.enabled ?? row.enabled,
      });
      if (!updated) throw notFound('Exporter not found');
      await app.telemetry.reload();
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'exporter.updated',
        target: updated.name,
        details: { exporterId, endpoint: hostOf(updated.endpoint), changed: Object.keys(body).sort() },
      });
      return toExporterDto(updated);
    },
  );

  app.delete(
    `${base}/:exporterId`,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: 'Remove an exporter',
        params: OneExporter,
        response: { 204: z.null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      const { workspaceId, exporterId } = request.params;
      const existing = await loadExporter(app, workspaceId, exporterId);
      if (!(await deleteExporter(app.db, workspaceId, exporterId))) throw notFound('Exporter not found');
      await app.telemetry.reload();
      await auditRequest(app.db, request, {
        workspaceId,
        action: 'exporter.deleted',
        target: existing.name,
        details: { exporterId, endpoint: hostOf(existing.endpoint) },
      });
      return reply.status(204).send(null);
    },
  );

  app.post(
    `${base}/:exporterId/test`,
    {
      config: { minRole: 'admin' },
      schema: {
        tags,
        summary: "Send one test span and answer with the collector's response",
        params: OneExporter,
        response: { 200: ExporterTestResult, ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const row = await loadExporter(app, request.params.workspaceId, request.params.exporterId);
      return app.telemetry.sendTestSpan(row, openHeaders(row, secret));
    },
  );

  app.get(
    `${base}/:exporterId/metrics`,
    {
      schema: {
        tags,
        summary: "The exporter's counters (every instance's exports added up)",
        params: OneExporter,
        response: { 200: ExporterMetrics, ...errorResponses(404) },
      },
    },
    async (request) => {
      await app.telemetry.flushTallies();
      return toExporterMetrics(await loadExporter(app, request.params.workspaceId, request.params.exporterId));
    },
  );
  return Promise.resolve();
};

/** An endpoint as the audit log names it: its host, never its path or query (they may hold a token). */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}
