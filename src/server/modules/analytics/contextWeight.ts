import type { AnalyticsCostsResult } from '../../../contract/analytics';
import { roundUsd } from '../../../contract/pricing';
import type { AnalyticsContext } from './analyticsContext';

// Context weight: per server, the tokens its tool definitions (its latest tools/list, as the
// recorder measured it) add to every turn of an agent that loaded them, priced as input at the
// workspace's model; and the tools it lists that nobody called in the range — candidates to prune.

export async function contextWeight(
  context: AnalyticsContext,
  callsByTool: Map<string, number>,
): Promise<AnalyticsCostsResult['contextWeight']> {
  const params: unknown[] = [context.workspaceId];
  let where = 'where l.workspace_id = $1';
  if (context.filters.serverId) {
    params.push(context.filters.serverId);
    where += ' and l.server_id = $2';
  }
  const lists = await context.db.query<{
    server_id: string;
    definition_tokens: number;
    tools: { name: string; definitionTokens: number }[];
    listed_at: Date | string;
  }>(
    `select l.server_id, l.definition_tokens, l.tools, l.listed_at from server_tool_lists l ${where} order by l.definition_tokens desc`,
    params,
  );
  const perToken = (context.prices.inputPerMillion * context.prices.correctionFactor) / 1_000_000;
  return lists.map((list) => ({
    serverId: list.server_id,
    serverName: context.serverName(list.server_id),
    definitionTokens: list.definition_tokens,
    costPerTurn: roundUsd(list.definition_tokens * perToken),
    listedAt: new Date(list.listed_at).toISOString(),
    unusedTools: list.tools
      .filter((tool) => !callsByTool.get(`${list.server_id}/${tool.name}`))
      .map((tool) => ({
        name: tool.name,
        definitionTokens: tool.definitionTokens,
        costPerTurn: roundUsd(tool.definitionTokens * perToken),
      }))
      .sort((a, b) => b.definitionTokens - a.definitionTokens),
  }));
}
