import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  RedactionSettingsBody,
  RedactionSettingsDto,
  RedactionTestBody,
  RedactionTestResult,
  RedactionText,
  type RedactionSettingsInput,
} from '../../../contract/redaction';
import { WorkspaceParams } from '../../../contract/workspaces';
import { saveRedactionSettings } from '../../data/redaction/store';
import { badRequest } from '../../http/errors';
import { errorResponses } from '../../http/errorResponses';
import type { JsonRpcMessage } from '../../proxy/jsonRpc';
import { BUILTIN_RULES, enabledByDefault } from '../../recording/redaction/builtinRules';
import { DEFAULT_SETTINGS, settingsProblem } from '../../recording/redaction/compiledRules';
import type { RedactionCounts } from '../../recording/redaction/redactor';

// /api/v1/workspaces/:workspaceId/redaction (docs/security.md): every member reads the rules;
// owners and admins change them; "test a sample" shows what the recorder would store of a message
// under the saved settings or under edits not saved yet. A change applies to messages recorded
// from then on, on every instance; what was stored before stays as it was.

function toDto(settings: RedactionSettingsInput, updatedAt: string | null): RedactionSettingsDto {
  const overrides = new Map(settings.rules.map((rule) => [rule.id, rule]));
  return {
    rules: BUILTIN_RULES.map((rule) => ({
      ...rule,
      enabled: overrides.get(rule.id)?.enabled ?? enabledByDefault(rule),
      hash: overrides.get(rule.id)?.hash ?? false,
    })),
    customPatterns: settings.customPatterns,
    paths: settings.paths,
    allowlist: settings.allowlist,
    updatedAt,
  };
}

/** A sample as a message: a JSON-RPC message as it is, other JSON as a request's params, text as one argument. */
function sampleMessage(sample: string, tool: string | undefined): JsonRpcMessage {
  let parsed: unknown = sample;
  try {
    parsed = JSON.parse(sample) as unknown;
  } catch {
    // Not JSON: the text is redacted as a string argument.
  }
  if (typeof parsed === 'object' && parsed !== null && (parsed as { jsonrpc?: unknown }).jsonrpc === '2.0')
    return parsed;
  return { jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: tool ?? 'sample', arguments: parsed } };
}

export const redactionRoutes: FastifyPluginAsync = (plugin) => {
  const app = plugin.withTypeProvider<ZodTypeProvider>();
  const tags = ['redaction'];

  app.get(
    '/redaction',
    {
      schema: {
        tags,
        summary: "The workspace's redaction rules: built-in rules on or off, custom patterns, paths, allowlist",
        params: WorkspaceParams,
        response: { 200: RedactionSettingsDto, ...errorResponses(401, 404) },
      },
    },
    (request) => {
      const stored = app.redaction.settingsOf(request.params.workspaceId);
      return Promise.resolve(toDto(stored?.settings ?? DEFAULT_SETTINGS, stored?.updatedAt ?? null));
    },
  );

  app.put(
    '/redaction',
    {
      config: { minRole: 'admin', roleRefusal: RedactionText.onlyManagersEdit },
      schema: {
        tags,
        summary: 'Change the redaction rules (owners and admins); what was stored before stays as it was',
        params: WorkspaceParams,
        body: RedactionSettingsBody,
        response: { 200: RedactionSettingsDto, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const problem = settingsProblem(request.body);
      if (problem) throw badRequest(problem);
      const { workspaceId } = request.params;
      const stored = await saveRedactionSettings(app.db, workspaceId, request.body, request.userId);
      await app.redaction.changed(workspaceId);
      return toDto(stored.settings, stored.updatedAt);
    },
  );

  app.post(
    '/redaction/test',
    {
      // Trying a sample changes nothing: every member may.
      config: { minRole: 'member' },
      schema: {
        tags,
        summary: 'What the recorder would store of a sample, under the saved settings or the ones given',
        params: WorkspaceParams,
        body: RedactionTestBody,
        response: { 200: RedactionTestResult, ...errorResponses(400, 401, 404) },
      },
    },
    (request) => {
      const { workspaceId } = request.params;
      const { sample, settings, tool } = request.body;
      if (settings) {
        const problem = settingsProblem(settings);
        if (problem) throw badRequest(problem);
      }
      const redactor = settings ? app.redaction.trial(workspaceId, settings) : app.redaction.forWorkspace(workspaceId);
      const counts: RedactionCounts = new Map();
      const stored = redactor.redactMessage(sampleMessage(sample, tool), tool, counts);
      return Promise.resolve({
        stored: JSON.stringify(stored, null, 2),
        matches: [...counts].map(([rule, count]) => ({ rule, count })),
      });
    },
  );
  return Promise.resolve();
};
