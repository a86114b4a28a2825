import type { UpstreamTarget } from './upstreamDirectory';
import { UpstreamErrorCode, type UpstreamFailure } from './upstreamErrors';

// What the proxy lets in at once, so that one tenant can only exhaust its own share: calls in
// flight per workspace and per server (a POST carrying requests counts from its arrival until its
// answer has gone out), and open GET streams per session. Nothing waits in a queue: past a limit
// the agent gets its JSON-RPC error at once (a queued call would only reach its timeout later).
export interface AdmissionLimits {
  callsInFlightPerWorkspace: number;
  callsInFlightPerServer: number;
  streamsPerSession: number;
}

export class Admission {
  private readonly callsByWorkspace = new Map<string, number>();
  private readonly callsByServer = new Map<string, number>();
  private readonly streamsBySession = new Map<string, number>();

  constructor(private readonly limits: AdmissionLimits) {}

  /** A place for one POST's calls, or the failure to answer them with. Call release() once it is over. */
  admitCalls(target: UpstreamTarget): { release: () => void } | { failure: UpstreamFailure } {
    const inWorkspace = this.callsByWorkspace.get(target.workspaceId) ?? 0;
    if (inWorkspace >= this.limits.callsInFlightPerWorkspace) {
      return {
        failure: {
          code: UpstreamErrorCode.workspaceBusy,
          reason: 'workspaceBusy',
          message: `Too many calls in flight for this workspace (limit ${this.limits.callsInFlightPerWorkspace}); retry when some have finished`,
        },
      };
    }
    const inServer = this.callsByServer.get(target.serverId) ?? 0;
    if (inServer >= this.limits.callsInFlightPerServer) {
      return {
        failure: {
          code: UpstreamErrorCode.serverBusy,
          reason: 'serverBusy',
          message: `Too many calls in flight for this server (limit ${this.limits.callsInFlightPerServer}); retry when some have finished`,
        },
      };
    }
    this.callsByWorkspace.set(target.workspaceId, inWorkspace + 1);
    this.callsByServer.set(target.serverId, inServer + 1);
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        decrement(this.callsByWorkspace, target.workspaceId);
        decrement(this.callsByServer, target.serverId);
      },
    };
  }

  /** A place for one GET stream of a session (`sessionKey`), or null when the session has its limit open. */
  openStream(sessionKey: string): (() => void) | null {
    const open = this.streamsBySession.get(sessionKey) ?? 0;
    if (open >= this.limits.streamsPerSession) return null;
    this.streamsBySession.set(sessionKey, open + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      decrement(this.streamsBySession, sessionKey);
    };
  }

  get streamLimit(): number {
    return this.limits.streamsPerSession;
  }

  /** Calls in flight now (for tests and health). */
  inFlight(workspaceId: string): number {
    return this.callsByWorkspace.get(workspaceId) ?? 0;
  }
}

function decrement(counts: Map<string, number>, key: string): void {
  const left = (counts.get(key) ?? 1) - 1;
  if (left <= 0) counts.delete(key);
  else counts.set(key, left);
}
