import type { Database, Queryable } from '../../db/database';
import {
  DEFAULT_MODEL_ID,
  modelPrice,
  MODEL_PRICES,
  PRICE_TABLE_DATE,
  TOKEN_SAMPLE_ABOVE_CHARS,
  TOKENIZER,
  type EffectivePrices,
  type PricingSettings,
  type UpdatePricingBody,
} from '../../../contract/pricing';

// A workspace's prices: its model from the dated table (src/contract/pricing.ts), the numbers it
// overrode, and per-call prices of tools behind paid APIs. Nothing is priced when it is stored:
// analytics multiply the stored token sums by these prices when they read (docs/analytics.md), so
// saving a price re-prices all history at once.

interface PricingRow {
  model: string;
  input_per_million: string | number | null;
  output_per_million: string | number | null;
  correction_factor: string | number | null;
}

const asNumber = (value: string | number | null): number | null => (value === null ? null : Number(value));

export async function readPrices(db: Queryable, workspaceId: string): Promise<EffectivePrices> {
  const [rows, tools] = await Promise.all([
    db.query<PricingRow>(
      'select model, input_per_million, output_per_million, correction_factor from workspace_pricing where workspace_id = $1',
      [workspaceId],
    ),
    db.query<{ server_id: string; tool_name: string; price_per_call: string | number }>(
      'select server_id, tool_name, price_per_call from tool_prices where workspace_id = $1 order by server_id, tool_name',
      [workspaceId],
    ),
  ]);
  const row = rows.at(0);
  const model = modelPrice(row?.model ?? DEFAULT_MODEL_ID);
  const input = asNumber(row?.input_per_million ?? null);
  const output = asNumber(row?.output_per_million ?? null);
  const factor = asNumber(row?.correction_factor ?? null);
  return {
    tableDate: PRICE_TABLE_DATE,
    tokenizer: TOKENIZER,
    model: model.id,
    modelName: model.name,
    inputPerMillion: input ?? model.inputPerMillion,
    outputPerMillion: output ?? model.outputPerMillion,
    correctionFactor: factor ?? model.correctionFactor,
    exactTokenizer: model.exactTokenizer,
    sampledAboveChars: TOKEN_SAMPLE_ABOVE_CHARS,
    overridden: {
      inputPerMillion: input !== null,
      outputPerMillion: output !== null,
      correctionFactor: factor !== null,
    },
    toolPrices: tools.map((tool) => ({
      serverId: tool.server_id,
      tool: tool.tool_name,
      pricePerCall: Number(tool.price_per_call),
    })),
  };
}

export async function pricingSettings(db: Queryable, workspaceId: string): Promise<PricingSettings> {
  return { prices: await readPrices(db, workspaceId), table: MODEL_PRICES.map((model) => ({ ...model })) };
}

/** Keys left out keep their value; null returns a number to the table's. Returns the servers of `toolPrices` not in the workspace. */
export async function savePricing(
  db: Database,
  workspaceId: string,
  body: UpdatePricingBody,
): Promise<{ unknownServers: string[] }> {
  return db.transaction(async (tx) => {
    if (body.toolPrices) {
      const serverIds = [...new Set(body.toolPrices.map((price) => price.serverId))];
      const known = await tx.query<{ id: string }>(
        'select id from servers where workspace_id = $1 and id = any($2::uuid[])',
        [workspaceId, serverIds],
      );
      const knownIds = new Set(known.map((row) => row.id));
      const unknownServers = serverIds.filter((id) => !knownIds.has(id));
      if (unknownServers.length > 0) return { unknownServers };
    }
    const current = (
      await tx.query<PricingRow>(
        'select model, input_per_million, output_per_million, correction_factor from workspace_pricing where workspace_id = $1 for update',
        [workspaceId],
      )
    ).at(0);
    const pick = (
      key: 'inputPerMillion' | 'outputPerMillion' | 'correctionFactor',
      stored: string | number | null | undefined,
    ) => (body[key] === undefined ? asNumber(stored ?? null) : body[key]);
    await tx.query(
      `insert into workspace_pricing (workspace_id, model, input_per_million, output_per_million, correction_factor, updated_at)
       values ($1, $2, $3, $4, $5, now())
       on conflict (workspace_id) do update set model = $2, input_per_million = $3, output_per_million = $4, correction_factor = $5, updated_at = now()`,
      [
        workspaceId,
        body.model ?? current?.model ?? DEFAULT_MODEL_ID,
        pick('inputPerMillion', current?.input_per_million),
        pick('outputPerMillion', current?.output_per_million),
        pick('correctionFactor', current?.correction_factor),
      ],
    );
    if (body.toolPrices) {
      await tx.query('delete from tool_prices where workspace_id = $1', [workspaceId]);
      const priced = body.toolPrices.filter((price) => price.pricePerCall > 0);
      if (priced.length > 0) {
        await tx.query(
          `insert into tool_prices (workspace_id, server_id, tool_name, price_per_call)
           select $1, s, t, p from unnest($2::uuid[], $3::text[], $4::float8[]) as x(s, t, p)
           on conflict (workspace_id, server_id, tool_name) do update set price_per_call = excluded.price_per_call`,
          [
            workspaceId,
            priced.map((price) => price.serverId),
            priced.map((price) => price.tool),
            priced.map((price) => price.pricePerCall),
          ],
        );
      }
    }
    return { unknownServers: [] };
  });
}
