import { z } from 'zod';

// What MCP traffic costs an agent's model (docs/analytics.md "Cost model"). Token counts come from
// one tokenizer, o200k_base (exact for the OpenAI models below); the other vendors' models have no
// offline tokenizer, so their counts are estimates scaled by an editable correction factor.
// Prices are USD per million tokens as the vendors published them on PRICE_TABLE_DATE; a workspace
// picks its model and may override both prices (and the factor), and may price a tool per call.

export const PRICE_TABLE_DATE = '2025-10-01';
export const TOKENIZER = 'o200k_base';
/**
 * A text longer than this (characters) is counted from a sample — evenly spaced windows cut at
 * spaces, scaled to its length — not token by token: its count is an estimate (docs/analytics.md
 * "Token counting"). Shorter texts, nearly every argument and most results, are counted exactly.
 */
export const TOKEN_SAMPLE_ABOVE_CHARS = 4096;

export interface ModelPrice {
  id: string;
  name: string;
  vendor: 'OpenAI' | 'Anthropic' | 'Google';
  /** USD per million input tokens (tool definitions and results enter the model as input). */
  inputPerMillion: number;
  /** USD per million output tokens (a call's arguments are written by the model). */
  outputPerMillion: number;
  /** Whether o200k_base counts are this model's own counts; otherwise they are estimates. */
  exactTokenizer: boolean;
  /** Multiplies o200k_base counts to estimate this model's counts (1 where exact). */
  correctionFactor: number;
}

export const MODEL_PRICES: readonly ModelPrice[] = [
  {
    id: 'gpt-5',
    name: 'GPT-5',
    vendor: 'OpenAI',
    inputPerMillion: 1.25,
    outputPerMillion: 10,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'gpt-5-mini',
    name: 'GPT-5 mini',
    vendor: 'OpenAI',
    inputPerMillion: 0.25,
    outputPerMillion: 2,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'gpt-4.1',
    name: 'GPT-4.1',
    vendor: 'OpenAI',
    inputPerMillion: 2,
    outputPerMillion: 8,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'gpt-4.1-mini',
    name: 'GPT-4.1 mini',
    vendor: 'OpenAI',
    inputPerMillion: 0.4,
    outputPerMillion: 1.6,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'gpt-4o',
    name: 'GPT-4o',
    vendor: 'OpenAI',
    inputPerMillion: 2.5,
    outputPerMillion: 10,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'gpt-4o-mini',
    name: 'GPT-4o mini',
    vendor: 'OpenAI',
    inputPerMillion: 0.15,
    outputPerMillion: 0.6,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'o3',
    name: 'o3',
    vendor: 'OpenAI',
    inputPerMillion: 2,
    outputPerMillion: 8,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'o4-mini',
    name: 'o4-mini',
    vendor: 'OpenAI',
    inputPerMillion: 1.1,
    outputPerMillion: 4.4,
    exactTokenizer: true,
    correctionFactor: 1,
  },
  {
    id: 'claude-opus-4.1',
    name: 'Claude Opus 4.1',
    vendor: 'Anthropic',
    inputPerMillion: 15,
    outputPerMillion: 75,
    exactTokenizer: false,
    correctionFactor: 1.2,
  },
  {
    id: 'claude-sonnet-4.5',
    name: 'Claude Sonnet 4.5',
    vendor: 'Anthropic',
    inputPerMillion: 3,
    outputPerMillion: 15,
    exactTokenizer: false,
    correctionFactor: 1.2,
  },
  {
    id: 'claude-haiku-4.5',
    name: 'Claude Haiku 4.5',
    vendor: 'Anthropic',
    inputPerMillion: 1,
    outputPerMillion: 5,
    exactTokenizer: false,
    correctionFactor: 1.2,
  },
  {
    id: 'gemini-2.5-pro',
    name: 'Gemini 2.5 Pro',
    vendor: 'Google',
    inputPerMillion: 1.25,
    outputPerMillion: 10,
    exactTokenizer: false,
    correctionFactor: 1.1,
  },
  {
    id: 'gemini-2.5-flash',
    name: 'Gemini 2.5 Flash',
    vendor: 'Google',
    inputPerMillion: 0.3,
    outputPerMillion: 2.5,
    exactTokenizer: false,
    correctionFactor: 1.1,
  },
];

export const DEFAULT_MODEL_ID = 'claude-sonnet-4.5';
export const MODEL_IDS = MODEL_PRICES.map((model) => model.id) as [string, ...string[]];

export function modelPrice(id: string): ModelPrice {
  return MODEL_PRICES.find((model) => model.id === id) ?? defaultModelPrice();
}

function defaultModelPrice(): ModelPrice {
  const model = MODEL_PRICES.find((price) => price.id === DEFAULT_MODEL_ID);
  if (!model) throw new Error(`DEFAULT_MODEL_ID ${DEFAULT_MODEL_ID} is not in MODEL_PRICES`);
  return model;
}

/** Money is kept to 6 decimals (a millionth of a dollar: one token of the cheapest model is less). */
export function roundUsd(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The prices a workspace's analytics use, as the costs answer and the pricing route show them. */
export const EffectivePrices = z.object({
  tableDate: z.string(),
  tokenizer: z.string(),
  model: z.string(),
  modelName: z.string(),
  inputPerMillion: z.number(),
  outputPerMillion: z.number(),
  correctionFactor: z.number(),
  /** False when token counts are o200k_base estimates of another vendor's tokenizer. */
  exactTokenizer: z.boolean(),
  /** Texts (results, arguments) longer than this many characters are counted from a sample: their counts are estimates. */
  sampledAboveChars: z.number().int(),
  /** Which of the three numbers the workspace set itself (the rest come from the table). */
  overridden: z.object({ inputPerMillion: z.boolean(), outputPerMillion: z.boolean(), correctionFactor: z.boolean() }),
  toolPrices: z.array(z.object({ serverId: z.string(), tool: z.string(), pricePerCall: z.number() })),
});
export type EffectivePrices = z.infer<typeof EffectivePrices>;

export const PriceTableEntry = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string(),
  inputPerMillion: z.number(),
  outputPerMillion: z.number(),
  exactTokenizer: z.boolean(),
  correctionFactor: z.number(),
});

/** GET …/analytics/pricing */
export const PricingSettings = z.object({
  prices: EffectivePrices,
  table: z.array(PriceTableEntry),
});
export type PricingSettings = z.infer<typeof PricingSettings>;

const price = z
  .number({ error: 'Expected a number' })
  .min(0, 'Must not be negative')
  .max(100_000, 'Must be at most 100000');

/**
 * PUT …/analytics/pricing. Every key is optional; `null` returns a number to the table's value.
 * `toolPrices`, when sent, replaces the whole list (a price of 0 or an absent tool costs nothing per call).
 */
export const UpdatePricingBody = z.strictObject({
  model: z.enum(MODEL_IDS, { error: `Expected one of ${MODEL_IDS.join(', ')}` }).optional(),
  inputPerMillion: price.nullable().optional(),
  outputPerMillion: price.nullable().optional(),
  correctionFactor: z
    .number({ error: 'Expected a number' })
    .min(0.1, 'Must be at least 0.1')
    .max(10, 'Must be at most 10')
    .nullable()
    .optional(),
  toolPrices: z
    .array(
      z.strictObject({
        serverId: z.uuid({ error: 'Expected a server id' }),
        tool: z.string().min(1, 'Required').max(200, 'At most 200 characters'),
        pricePerCall: z
          .number({ error: 'Expected a number' })
          .min(0, 'Must not be negative')
          .max(1000, 'Must be at most 1000'),
      }),
    )
    .max(500, 'At most 500 tool prices')
    .optional(),
});
export type UpdatePricingBody = z.infer<typeof UpdatePricingBody>;
