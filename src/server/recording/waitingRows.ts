// How many messages and calls each session and each workspace has waiting in the recorder's queue
// (rowQueue.ts): a session's end is announced after its last row is stored, and the queue is
// shared fairly between workspaces.

export class WaitingRows {
  /** Session id → its rows waiting. */
  private readonly bySession = new Map<string, number>();
  /** Workspace id → its rows waiting. */
  private readonly byWorkspace = new Map<string, number>();

  count(row: { session_id: string; workspace_id: string }, delta: number): void {
    const waiting = (this.bySession.get(row.session_id) ?? 0) + delta;
    if (waiting > 0) this.bySession.set(row.session_id, waiting);
    else this.bySession.delete(row.session_id);
    const ofWorkspace = (this.byWorkspace.get(row.workspace_id) ?? 0) + delta;
    if (ofWorkspace > 0) this.byWorkspace.set(row.workspace_id, ofWorkspace);
    else this.byWorkspace.delete(row.workspace_id);
  }

  ofSession(sessionId: string): boolean {
    return this.bySession.has(sessionId);
  }

  /**
   * The queue (`size` rows of at most `limit`) is shared fairly: once it is half full, a workspace
   * holding more than an equal share (the queue over the workspaces with rows waiting, plus one
   * for a newcomer) gets no more room, so one workspace's flood fills its own share and drops its
   * own rows, never another's.
   */
  roomFor(workspaceId: string, size: number, limit: number): boolean {
    if (size >= limit) return false;
    if (size < limit / 2) return true;
    const share = limit / (this.byWorkspace.size + 1);
    return (this.byWorkspace.get(workspaceId) ?? 0) < share;
  }

  clear(): void {
    this.bySession.clear();
    this.byWorkspace.clear();
  }
}
