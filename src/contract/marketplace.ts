import { z } from 'zod';

// The marketplace catalog (docs/marketplace.md). Entries are the official MCP Registry's
// server.json documents; Toolscope's own additions (category, tags, known tools) live under
// _meta["io.toolscope/catalog"], as the format reserves _meta for reverse-DNS namespaced extensions.
export const TOOLSCOPE_META_KEY = 'io.toolscope/catalog';

const input = z.looseObject({
  name: z.string().optional(),
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  value: z.string().optional(),
  format: z.string().optional(),
  choices: z.array(z.string()).optional(),
});
export const CatalogInput = input.extend({ variables: z.record(z.string(), input).optional() });
export type CatalogInput = z.infer<typeof CatalogInput>;

const argument = CatalogInput.extend({
  type: z.enum(['positional', 'named']),
  valueHint: z.string().optional(),
  isRepeated: z.boolean().optional(),
});
export type CatalogArgument = z.infer<typeof argument>;

export const CatalogRemote = z.looseObject({
  type: z.enum(['streamable-http', 'sse']),
  url: z.string().regex(/^https?:\/\/[^\s]+$/, 'Remote URLs are http(s)'),
  headers: z.array(CatalogInput.extend({ name: z.string() })).optional(),
  variables: z.record(z.string(), input).optional(),
});
export type CatalogRemote = z.infer<typeof CatalogRemote>;

export const CatalogPackage = z.looseObject({
  registryType: z.string(),
  registryBaseUrl: z.string().optional(),
  identifier: z.string(),
  version: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: z.looseObject({ type: z.string(), url: z.string().optional() }),
  runtimeArguments: z.array(argument).optional(),
  packageArguments: z.array(argument).optional(),
  environmentVariables: z.array(CatalogInput.extend({ name: z.string() })).optional(),
});
export type CatalogPackage = z.infer<typeof CatalogPackage>;

/** One server.json, read leniently: unknown fields are kept, the fields we show are typed. */
export const CatalogServerJson = z.looseObject({
  name: z.string().min(3).max(200),
  title: z.string().max(100).optional(),
  description: z.string().max(2000).default(''),
  version: z.string().max(255).default(''),
  websiteUrl: z.string().optional(),
  repository: z
    .looseObject({ url: z.string(), source: z.string().optional(), subfolder: z.string().optional() })
    .optional(),
  icons: z
    .array(z.looseObject({ src: z.string(), mimeType: z.string().optional(), theme: z.string().optional() }))
    .optional(),
  remotes: z.array(CatalogRemote).optional(),
  packages: z.array(CatalogPackage).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
export type CatalogServerJson = z.infer<typeof CatalogServerJson>;

export const RUN_KINDS = ['remote', 'npm', 'pypi', 'docker'] as const;
export type RunKind = (typeof RUN_KINDS)[number];

/** What a marketplace card needs; the list answer is an array of these. */
export const CatalogSummary = z.object({
  slug: z.string(),
  name: z.string(),
  title: z.string(),
  description: z.string(),
  version: z.string(),
  category: z.string(),
  tags: z.array(z.string()),
  runKinds: z.array(z.enum(RUN_KINDS)),
  transports: z.array(z.string()),
  needsSecrets: z.boolean(),
  iconUrl: z.string().nullable(),
});
export type CatalogSummary = z.infer<typeof CatalogSummary>;

export const CatalogListResult = z.object({
  servers: z.array(CatalogSummary),
  /** Where the catalog came from: the bundled file, an operator's file, or a registry URL. */
  source: z.enum(['bundled', 'file', 'registry']),
  /** Set when the configured source failed and the bundled catalog stands in. */
  warning: z.string().nullable(),
});
export type CatalogListResult = z.infer<typeof CatalogListResult>;

export const CatalogDetail = CatalogSummary.extend({
  tools: z.array(z.string()),
  server: CatalogServerJson,
});
export type CatalogDetail = z.infer<typeof CatalogDetail>;

export const CatalogSlugParams = z.object({ slug: z.string().min(1).max(300) });

/** A URL-safe, stable name for the page of an entry: "io.github.user/weather" → "io-github-user-weather". */
export function catalogSlug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function runKindOf(pkg: Pick<CatalogPackage, 'registryType'>): RunKind | null {
  const type = pkg.registryType.toLowerCase();
  if (type === 'npm') return 'npm';
  if (type === 'pypi') return 'pypi';
  if (type === 'oci' || type === 'docker') return 'docker';
  return null;
}

function toolscopeMeta(server: CatalogServerJson): { category?: unknown; tags?: unknown; tools?: unknown } {
  const meta = server._meta?.[TOOLSCOPE_META_KEY];
  return meta && typeof meta === 'object' ? meta : {};
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

/** The card's view of one entry. `slug` is decided by the caller (unique within the catalog). */
export function summarizeServer(server: CatalogServerJson, slug: string): CatalogSummary {
  const meta = toolscopeMeta(server);
  const runKinds = new Set<RunKind>();
  if (server.remotes?.length) runKinds.add('remote');
  for (const pkg of server.packages ?? []) {
    const kind = runKindOf(pkg);
    if (kind) runKinds.add(kind);
  }
  const transports = new Set<string>();
  for (const remote of server.remotes ?? []) transports.add(remote.type);
  for (const pkg of server.packages ?? []) transports.add(pkg.transport.type);
  const secret = (inputs: { isSecret?: boolean; isRequired?: boolean }[] | undefined) =>
    (inputs ?? []).some((i) => i.isSecret && i.isRequired !== false);
  const needsSecrets =
    (server.remotes ?? []).some((r) => secret(r.headers)) ||
    (server.packages ?? []).some((p) => secret(p.environmentVariables));
  const icon =
    server.icons?.find((i) => i.src.startsWith('https://') && i.theme !== 'light') ??
    server.icons?.find((i) => i.src.startsWith('https://'));
  return {
    slug,
    name: server.name,
    title: server.title?.trim() || server.name.split('/').pop() || server.name,
    description: server.description,
    version: server.version,
    category: typeof meta.category === 'string' && meta.category ? meta.category : 'Other',
    tags: strings(meta.tags),
    runKinds: RUN_KINDS.filter((k) => runKinds.has(k)),
    transports: [...transports],
    needsSecrets,
    iconUrl: icon?.src ?? null,
  };
}

export function toolsOf(server: CatalogServerJson): string[] {
  return strings(toolscopeMeta(server).tools);
}
