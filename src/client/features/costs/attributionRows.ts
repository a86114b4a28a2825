import type { AnalyticsCostsResult, CostBreakdown } from '../../../contract/analytics';

// The rows of /cost-attribution for a chosen dimension, and their CSV: the export holds exactly
// the rows the table shows, in its order, with the same numbers (cost kept to 6 decimals).

export const DIMENSIONS = ['server', 'tool', 'client', 'key', 'session'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export const DIMENSION_LABELS: Record<Dimension, string> = {
  server: 'Server',
  tool: 'Tool',
  client: 'Client',
  key: 'Platform key',
  session: 'Session',
};

export interface AttributionRow extends CostBreakdown {
  serverName: string | null;
  /** Of the total cost of the rows, 0..1. */
  share: number;
}

export function readDimension(value: string | null): Dimension {
  return (DIMENSIONS as readonly string[]).includes(value ?? '') ? (value as Dimension) : 'server';
}

export function attributionRows(costs: AnalyticsCostsResult, dimension: Dimension): AttributionRow[] {
  const source: Record<Dimension, CostBreakdown[]> = {
    server: costs.byServer,
    tool: costs.byTool,
    client: costs.byClient,
    key: costs.byKey,
    session: costs.bySession,
  };
  const names = new Map(costs.byServer.map((server) => [server.id, server.name]));
  const rows = source[dimension];
  const total = rows.reduce((sum, row) => sum + row.cost, 0);
  return rows.map((row) => ({
    ...row,
    serverName: dimension === 'server' || row.serverId === null ? null : (names.get(row.serverId) ?? null),
    share: total === 0 ? 0 : row.cost / total,
  }));
}

function csvField(value: string | number): string {
  const text = String(value);
  // Quoted when it holds a separator, a quote or a line break; a leading = + - @ is defused for spreadsheets.
  const safe = /^[=+\-@]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function attributionCsv(rows: readonly AttributionRow[], dimension: Dimension): string {
  const header = [
    DIMENSION_LABELS[dimension].toLowerCase().replace(' ', '_'),
    'id',
    'server',
    'calls',
    'tokens',
    'cost_usd',
    'share_percent',
  ];
  const lines = rows.map((row) =>
    [row.name, row.id, row.serverName ?? '', row.calls, row.tokens, row.cost.toFixed(6), (row.share * 100).toFixed(2)]
      .map(csvField)
      .join(','),
  );
  return [header.join(','), ...lines].join('\r\n') + '\r\n';
}
