// Remembers, per server, the definition each tool had when this instance last compared it with
// the database, so a proxied tools/list that repeats what is already stored (the common case:
// every agent session lists tools) costs no database work. Entries expire, so a change recorded
// by another instance is compared against the database again within a minute.
export const SEEN_TTL_MS = 60_000;

/** JSON with object keys sorted: equal definitions give equal strings. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return jsonText(value) ?? 'null';
}

/** JSON.stringify as it behaves: undefined (and a function) have no JSON, whatever its type says. */
function jsonText(value: unknown): string | undefined {
  return JSON.stringify(value);
}

export class SeenDefinitions {
  private readonly byServer = new Map<string, Map<string, { canonical: string; expiresAt: number }>>();

  constructor(private readonly now: () => number = Date.now) {}

  /** True when every definition equals what was last stored for it (and that memory is fresh). */
  allKnown(serverId: string, definitions: { name: string; definition: unknown }[]): boolean {
    const seen = this.byServer.get(serverId);
    if (!seen) return false;
    const now = this.now();
    return definitions.every(({ name, definition }) => {
      const entry = seen.get(name);
      return entry !== undefined && entry.expiresAt > now && entry.canonical === canonicalJson(definition);
    });
  }

  remember(serverId: string, name: string, definition: unknown): void {
    let seen = this.byServer.get(serverId);
    if (!seen) this.byServer.set(serverId, (seen = new Map<string, { canonical: string; expiresAt: number }>()));
    seen.set(name, { canonical: canonicalJson(definition), expiresAt: this.now() + SEEN_TTL_MS });
  }

  forget(serverId: string): void {
    this.byServer.delete(serverId);
  }
}
