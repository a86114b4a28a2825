import { CatalogServerJson, catalogSlug, type CatalogServerJson as ServerJson } from '../../../contract/marketplace';

// Reads a catalog document in either shape the issue names: our file shape
// { servers: [server.json, …] } and the MCP Registry API's list answer
// { servers: [{ server: server.json, _meta: … }], metadata: { nextCursor } }. A bare array of
// server.json is read too. Entries that are not server.json are skipped and counted, never fatal.
export interface ParsedCatalog {
  servers: ServerJson[];
  skipped: number;
  nextCursor: string | null;
}

const REGISTRY_META = 'io.modelcontextprotocol.registry/official';

export function parseCatalogDocument(document: unknown): ParsedCatalog {
  const list = Array.isArray(document)
    ? document
    : document && typeof document === 'object'
      ? (document as { servers?: unknown }).servers
      : undefined;
  if (!Array.isArray(list)) throw new Error('The catalog has no "servers" list');
  const servers: ServerJson[] = [];
  let skipped = 0;
  for (const item of list as unknown[]) {
    const wrapped =
      item && typeof item === 'object' && 'server' in item
        ? (item as { server: unknown; _meta?: Record<string, unknown> })
        : null;
    const candidate = wrapped ? wrapped.server : item;
    // A registry answer lists every version of a server; only the latest is shown.
    const official = wrapped?._meta?.[REGISTRY_META] as { isLatest?: unknown } | undefined;
    if (official && official.isLatest === false) continue;
    const parsed = CatalogServerJson.safeParse(candidate);
    if (parsed.success) servers.push(parsed.data);
    else skipped += 1;
  }
  const metadata =
    document && typeof document === 'object' && !Array.isArray(document)
      ? (document as { metadata?: { nextCursor?: unknown } }).metadata
      : undefined;
  return {
    servers,
    skipped,
    nextCursor: typeof metadata?.nextCursor === 'string' && metadata.nextCursor ? metadata.nextCursor : null,
  };
}

/** One entry per name (the last listed wins) and a unique slug for each. */
export function indexBySlug(servers: ServerJson[]): Map<string, ServerJson> {
  const byName = new Map<string, ServerJson>();
  for (const server of servers) byName.set(server.name, server);
  const bySlug = new Map<string, ServerJson>();
  for (const server of byName.values()) {
    const base = catalogSlug(server.name) || 'server';
    let slug = base;
    for (let n = 2; bySlug.has(slug); n += 1) slug = `${base}-${n}`;
    bySlug.set(slug, server);
  }
  return bySlug;
}
