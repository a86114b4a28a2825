import type { CatalogSummary, RunKind } from '../../../contract/marketplace';

export interface CatalogFilter {
  query: string;
  category: string;
  runKind: RunKind | '';
}

/**
 * Entries matching every word of the query (in title, name, description or tags), the category
 * and the way it runs. Each entry's search text is built once per catalog, so typing costs one
 * substring test per word per entry (1,000 entries: well under a millisecond).
 */
export function searchTextOf(entry: CatalogSummary): string {
  return `${entry.title}\n${entry.name}\n${entry.description}\n${entry.tags.join(' ')}\n${entry.category}`.toLowerCase();
}

export function filterCatalog(
  entries: readonly CatalogSummary[],
  texts: readonly string[],
  filter: CatalogFilter,
): CatalogSummary[] {
  const words = filter.query.toLowerCase().split(/\s+/).filter(Boolean);
  const out: CatalogSummary[] = [];
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i];
    if (filter.category && entry.category !== filter.category) continue;
    if (filter.runKind && !entry.runKinds.includes(filter.runKind)) continue;
    if (words.length && !words.every((word) => texts[i].includes(word))) continue;
    out.push(entry);
  }
  return out;
}

export const RUN_KIND_LABELS: Record<RunKind, string> = {
  remote: 'Remote',
  npm: 'npm',
  pypi: 'PyPI',
  docker: 'Docker',
};
