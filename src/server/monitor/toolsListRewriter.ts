import type { Database } from '../db/database';
import type { Definition } from '../data/schemas/store';
import { listPinnedToolDefinitions } from '../data/schemas/serverSchemas';
import { RiskGuard } from './riskGuard';

// What the proxy serves in tools/list when a tool is pinned (rolled back): the pinned version's
// definition instead of the upstream's current one. The proxy calls rewrite() on every
// tools/list result, so it is synchronous and costs one Map lookup for a server without pins;
// the cache is reloaded from the database whenever a pin changes (here, or — relayed through
// PostgreSQL NOTIFY — on another instance). An unpinned tool whose upstream definition adds a high
// risk finding is swapped for its stored definition too (riskGuard.ts).
export interface PinnedTool {
  definition: Definition;
  pinnedVersion: number;
  currentVersion: number;
}

export const PINS_CHANNEL = 'toolscope_schema_pins';

export class ToolsListRewriter {
  private readonly byServer = new Map<string, Map<string, PinnedTool>>();
  private readonly riskGuard: RiskGuard;

  constructor(private readonly db: Database) {
    this.riskGuard = new RiskGuard(db);
  }

  /** Loads every pin and risk baseline (at start). */
  async loadAll(): Promise<void> {
    const pins = await listPinnedToolDefinitions(this.db);
    this.byServer.clear();
    for (const pin of pins) this.put(pin.serverId, pin.name, pin);
    await this.riskGuard.loadAll();
  }

  /** Reloads the pins and risk baselines of one server after a pin, unpin, new version or delete. */
  async reloadServer(serverId: string): Promise<void> {
    const pins = await listPinnedToolDefinitions(this.db, serverId);
    this.byServer.delete(serverId);
    for (const pin of pins) this.put(serverId, pin.name, pin);
    await this.riskGuard.reloadServer(serverId);
  }

  /** After this instance changed a pin: reload here and tell the other instances to reload. */
  async pinsChanged(serverId: string): Promise<void> {
    await this.reloadServer(serverId);
    if (this.db.engine === 'postgres') await this.db.notify(PINS_CHANNEL, serverId);
  }

  forgetServer(serverId: string): void {
    this.byServer.delete(serverId);
    this.riskGuard.forgetServer(serverId);
  }

  /** True when some tool of this server is pinned (the proxy can stream tools/list untouched otherwise). */
  hasPins(serverId: string): boolean {
    return (this.byServer.get(serverId)?.size ?? 0) > 0;
  }

  /** True when a tools/list answer of this server may be rewritten (a pin or a risk baseline). */
  mayRewrite(serverId: string): boolean {
    return this.hasPins(serverId) || this.riskGuard.guards(serverId);
  }

  /**
   * A tools/list result with each pinned tool replaced by its pinned definition. Tools without a
   * pin, and anything that is not a tools/list result, pass through untouched (same object).
   */
  rewrite(serverId: string, result: unknown): unknown {
    const pins = this.byServer.get(serverId) ?? new Map<string, PinnedTool>();
    if (!this.mayRewrite(serverId)) return result;
    if (typeof result !== 'object' || result === null || !Array.isArray((result as { tools?: unknown }).tools))
      return result;
    const tools = (result as { tools: unknown[] }).tools;
    // Set inside the map callback below.
    let changed = false as boolean;
    const rewritten = tools.map((tool) => {
      if (typeof tool !== 'object' || tool === null) return tool;
      const name = (tool as { name?: unknown }).name;
      const pin = typeof name === 'string' ? pins.get(name) : undefined;
      const served = pin?.definition ?? this.riskGuard.heldDefinition(serverId, tool as Record<string, unknown>);
      if (!served) return tool;
      changed = true;
      return served;
    });
    return changed ? { ...result, tools: rewritten } : result;
  }

  /**
   * The pin of a tool whose upstream definition has moved past it (the proxy records calls of
   * such a tool with this in their meta), or undefined.
   */
  driftOf(serverId: string, toolName: string): { pinnedVersion: number; currentVersion: number } | undefined {
    const pin = this.byServer.get(serverId)?.get(toolName);
    if (!pin || pin.pinnedVersion === pin.currentVersion) return undefined;
    return { pinnedVersion: pin.pinnedVersion, currentVersion: pin.currentVersion };
  }

  private put(serverId: string, name: string, pin: PinnedTool): void {
    let pins = this.byServer.get(serverId);
    if (!pins) this.byServer.set(serverId, (pins = new Map<string, PinnedTool>()));
    pins.set(name, {
      definition: pin.definition,
      pinnedVersion: pin.pinnedVersion,
      currentVersion: pin.currentVersion,
    });
  }
}
