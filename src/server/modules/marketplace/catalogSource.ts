import { readFile, stat } from 'node:fs/promises';
import type { CatalogServerJson } from '../../../contract/marketplace';
import bundledCatalog from './bundledCatalog.json';
import { indexBySlug, parseCatalogDocument } from './catalogParsing';

// Where the marketplace's entries come from (docs/marketplace.md): TOOLSCOPE_CATALOG_URL (a
// registry speaking the MCP Registry API v0), else TOOLSCOPE_CATALOG_FILE, else the catalog
// bundled with the product. A source that fails leaves the last good catalog (or the bundled one)
// in place with a warning the page shows, so the marketplace never goes blank.
export interface LoadedCatalog {
  bySlug: Map<string, CatalogServerJson>;
  source: 'bundled' | 'file' | 'registry';
  warning: string | null;
}

export interface CatalogSourceOptions {
  catalogUrl?: string;
  catalogFile?: string;
  /** How long a registry answer is reused. */
  registryTtlMs?: number;
  fetchImpl?: typeof fetch;
}

const REGISTRY_PAGE_SIZE = 100;
/** A bound on what one refresh reads from a registry (pages × entries). */
const REGISTRY_MAX_PAGES = 50;
const REGISTRY_TIMEOUT_MS = 10_000;

function bundled(warning: string | null = null): LoadedCatalog {
  return { bySlug: indexBySlug(parseCatalogDocument(bundledCatalog).servers), source: 'bundled', warning };
}

export class CatalogSource {
  private cached: LoadedCatalog | null = null;
  private cachedAt = 0;
  private fileMtimeMs = -1;
  private loading: Promise<LoadedCatalog> | null = null;

  constructor(private readonly options: CatalogSourceOptions = {}) {}

  async get(): Promise<LoadedCatalog> {
    if (this.loading) return this.loading;
    if (this.cached && !(await this.isStale())) return this.cached;
    this.loading = this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async isStale(): Promise<boolean> {
    if (this.options.catalogUrl) return Date.now() - this.cachedAt > (this.options.registryTtlMs ?? 15 * 60_000);
    if (this.options.catalogFile) {
      const mtime = await stat(this.options.catalogFile).then(
        (s) => s.mtimeMs,
        () => -2,
      );
      return mtime !== this.fileMtimeMs;
    }
    return false;
  }

  private async load(): Promise<LoadedCatalog> {
    let next: LoadedCatalog;
    if (this.options.catalogUrl) next = await this.fromRegistry(this.options.catalogUrl);
    else if (this.options.catalogFile) next = await this.fromFile(this.options.catalogFile);
    else next = bundled();
    this.cached = next;
    this.cachedAt = Date.now();
    return next;
  }

  private fallback(reason: string): LoadedCatalog {
    const previous = this.cached && this.cached.source !== 'bundled' ? this.cached : null;
    return previous ? { ...previous, warning: reason } : bundled(reason);
  }

  private async fromFile(file: string): Promise<LoadedCatalog> {
    try {
      this.fileMtimeMs = await stat(file).then((s) => s.mtimeMs);
      const parsed = parseCatalogDocument(JSON.parse(await readFile(file, 'utf8')));
      const warning =
        parsed.skipped > 0
          ? `${parsed.skipped} entries of the catalog file are not server.json and were skipped.`
          : null;
      return { bySlug: indexBySlug(parsed.servers), source: 'file', warning };
    } catch (error) {
      return this.fallback(
        `The catalog file could not be read (${(error as Error).message}); showing the bundled catalog.`,
      );
    }
  }

  private async fromRegistry(baseUrl: string): Promise<LoadedCatalog> {
    const fetchImpl = this.options.fetchImpl ?? fetch;
    const servers: CatalogServerJson[] = [];
    let cursor: string | null = null;
    try {
      for (let page = 0; page < REGISTRY_MAX_PAGES; page += 1) {
        const url = new URL(`${baseUrl.replace(/\/+$/, '')}/v0/servers`);
        url.searchParams.set('limit', String(REGISTRY_PAGE_SIZE));
        url.searchParams.set('version', 'latest');
        if (cursor) url.searchParams.set('cursor', cursor);
        const response = await fetchImpl(url, {
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(REGISTRY_TIMEOUT_MS),
        });
        if (!response.ok) throw new Error(`the registry answered ${response.status}`);
        const parsed = parseCatalogDocument(await response.json());
        servers.push(...parsed.servers);
        cursor = parsed.nextCursor;
        if (!cursor) break;
      }
      return { bySlug: indexBySlug(servers), source: 'registry', warning: null };
    } catch (error) {
      return this.fallback(
        `The registry at ${baseUrl} could not be read (${(error as Error).message}); showing the last catalog read.`,
      );
    }
  }
}

/** One catalog per app configuration: the list, the detail and Deploy read the same cache. */
const sources = new WeakMap<object, CatalogSource>();
export function catalogFor(config: { catalogUrl?: string; catalogFile?: string }): CatalogSource {
  let source = sources.get(config);
  if (!source) {
    source = new CatalogSource({ catalogUrl: config.catalogUrl, catalogFile: config.catalogFile });
    sources.set(config, source);
  }
  return source;
}
