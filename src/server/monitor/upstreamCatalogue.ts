import type { SchemaKind } from '../../contract/schemas';
import { identityOf } from '../schemas/schemaIdentity';
import type { UpstreamSession } from './upstreamClient';

// Everything an upstream lists: tools, prompts, resources and resource templates, each list
// followed through its pages. A kind the server does not advertise in its capabilities is not
// asked for (servers answer "method not found" otherwise).
export interface CatalogueItem {
  kind: SchemaKind;
  name: string;
  definition: Record<string, unknown>;
}

/** A server that pages forever must not keep discovery busy forever. */
const MAX_PAGES = 100;

async function allPages<T>(
  fetchPage: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>,
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await fetchPage(cursor);
    items.push(...result.items);
    if (!result.nextCursor || result.nextCursor === cursor) break;
    cursor = result.nextCursor;
  }
  return items;
}

export async function listUpstreamCatalogue(session: UpstreamSession): Promise<CatalogueItem[]> {
  const { client } = session;
  const capabilities = client.getServerCapabilities() ?? {};
  const options = () => ({ timeout: session.remainingMs() });
  const out: CatalogueItem[] = [];
  const add = (kind: SchemaKind, definitions: object[]) => {
    for (const definition of definitions as Record<string, unknown>[]) {
      const name = identityOf(kind, definition);
      if (name) out.push({ kind, name, definition });
    }
  };

  if (capabilities.tools) {
    add(
      'tool',
      await allPages(async (cursor) => {
        const r = await client.listTools(cursor ? { cursor } : undefined, options());
        return { items: r.tools, nextCursor: r.nextCursor };
      }),
    );
  }
  if (capabilities.prompts) {
    add(
      'prompt',
      await allPages(async (cursor) => {
        const r = await client.listPrompts(cursor ? { cursor } : undefined, options());
        return { items: r.prompts, nextCursor: r.nextCursor };
      }),
    );
  }
  if (capabilities.resources) {
    add(
      'resource',
      await allPages(async (cursor) => {
        const r = await client.listResources(cursor ? { cursor } : undefined, options());
        return { items: r.resources, nextCursor: r.nextCursor };
      }),
    );
    add(
      'resource_template',
      await allPages(async (cursor) => {
        const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, options());
        return { items: r.resourceTemplates, nextCursor: r.nextCursor };
      }),
    );
  }
  return dedupe(out);
}

/** A server listing one name twice would make the unique (server, kind, name) insert fail. */
function dedupe(items: CatalogueItem[]): CatalogueItem[] {
  const seen = new Map<string, CatalogueItem>();
  for (const item of items) seen.set(`${item.kind}\u0000${item.name}`, item);
  return [...seen.values()];
}
