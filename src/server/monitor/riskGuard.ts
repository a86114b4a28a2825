import type { Database } from '../db/database';
import type { RiskFinding } from '../../contract/toolRisk';
import { listWorkspaceTools, type WorkspaceTool } from '../data/schemas/riskContext';
import type { Definition } from '../data/schemas/store';
import { assessDefinition, introducedHighFindings } from '../schemas/risk/riskCheck';

// The proxy's half of the risk check. Discovery pins the trusted version when it records a change
// that adds a high finding, but the tools/list that carried the change reaches the proxy first:
// this guard compares each unpinned tool of an upstream's answer with the definition last stored
// for it and, when the upstream's adds a high finding, serves the stored one instead — so an agent
// never sees the poisoned text, not even once. Held per server in memory, reloaded with the pins.
interface Baseline {
  definition: Definition;
  findings: RiskFinding[];
  /** The upstream text last judged, and the verdict (a tools/list repeats itself every session). */
  lastSeen?: { json: string; held: boolean };
}

interface ServerGuard {
  tools: Map<string, Baseline>;
  otherServersToolNames: string[];
}

export class RiskGuard {
  private readonly byServer = new Map<string, ServerGuard>();

  constructor(private readonly db: Database) {}

  async loadAll(): Promise<void> {
    this.byServer.clear();
    this.build(await listWorkspaceTools(this.db));
  }

  /** Reloads every server of this server's workspace (their shadowing context changes too). */
  async reloadServer(serverId: string): Promise<void> {
    const tools = await listWorkspaceTools(this.db, serverId);
    this.byServer.delete(serverId);
    for (const id of new Set(tools.map((t) => t.serverId))) this.byServer.delete(id);
    this.build(tools);
  }

  forgetServer(serverId: string): void {
    this.byServer.delete(serverId);
  }

  /** True when some tool of this server has a baseline to guard. */
  guards(serverId: string): boolean {
    return (this.byServer.get(serverId)?.tools.size ?? 0) > 0;
  }

  /** The stored definition to serve instead of this upstream tool, or undefined to pass it on. */
  heldDefinition(serverId: string, tool: Record<string, unknown>): Definition | undefined {
    const guard = this.byServer.get(serverId);
    const baseline = typeof tool.name === 'string' ? guard?.tools.get(tool.name) : undefined;
    if (!guard || !baseline) return undefined;
    const json = JSON.stringify(tool);
    if (baseline.lastSeen?.json !== json) {
      const findings = assessDefinition(tool, { otherServersToolNames: guard.otherServersToolNames });
      baseline.lastSeen = { json, held: introducedHighFindings(baseline.findings, findings).length > 0 };
    }
    return baseline.lastSeen.held ? baseline.definition : undefined;
  }

  private build(tools: WorkspaceTool[]): void {
    const byWorkspace = new Map<string, WorkspaceTool[]>();
    for (const tool of tools) {
      const list = byWorkspace.get(tool.workspaceId) ?? [];
      list.push(tool);
      byWorkspace.set(tool.workspaceId, list);
    }
    for (const workspaceTools of byWorkspace.values()) {
      for (const serverId of new Set(workspaceTools.map((t) => t.serverId))) {
        const otherServersToolNames = [
          ...new Set(workspaceTools.filter((t) => t.serverId !== serverId).map((t) => t.name)),
        ];
        const guarded = new Map<string, Baseline>();
        for (const tool of workspaceTools) {
          if (tool.serverId !== serverId || tool.pinned) continue;
          guarded.set(tool.name, {
            definition: tool.definition,
            findings: assessDefinition(tool.definition, { otherServersToolNames }),
          });
        }
        this.byServer.set(serverId, { tools: guarded, otherServersToolNames });
      }
    }
  }
}
