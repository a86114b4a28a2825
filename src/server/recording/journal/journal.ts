import fs from 'node:fs';
import { RecordGroup, type JournalEntry, type RawTexts } from './recordCodec';
import { listSegments, lockJournalDir, readSegment, segmentPath, type LeftoverSegment } from './segmentFiles';
import { makePrivateDir, openPrivateAppend } from '../../files/privatePaths';
import { syncPath, syncPathLater } from '../../files/fileSync';

// The recorder's write-ahead journal (docs/proxy.md "The recording journal"). Every row the
// recorder queues for the database is first appended here; a segment file is deleted once every
// row recorded in it is committed, and what a killed process leaves behind is replayed at the
// next start (journalReplay.ts). Nothing here is awaited by the proxy:
// - group commit: the records appended during one turn of the event loop go to the kernel in one
//   write at the end of that turn (setImmediate) — or at once when the proxy asks (commitNow,
//   before an answer goes out), so a record is never behind an answer the agent could have read;
// - fdatasync on an interval (fsyncMs), off the event loop — and the folder's after a segment is
//   created, or a crash could drop the new segment's name: a machine crash loses at most that.
// Bounded by a disk budget (maxBytes): past it hasRoom() is false and the caller drops and counts.

export interface JournalOptions {
  dir: string;
  /** fdatasync interval (default 1000 ms); 0 = after every group write. */
  fsyncMs: number;
  /** Disk budget of all segments together. */
  maxBytes: number;
  /** A segment is sealed and a new one begun past this size (default: a quarter of the budget, at most 16 MiB). */
  segmentBytes?: number;
  log?: { error(obj: unknown, msg: string): void };
}

export interface JournalStats {
  bytes: number;
  segments: number;
  appended: number;
  /** Records refused because the budget was spent (their rows were dropped and counted by the caller). */
  overBudget: number;
  writeErrors: number;
  /** Records a failed write could not put on disk (disk full): their rows are still written to the database from memory. */
  notJournaled: number;
  syncs: number;
}

interface ActiveSegment {
  id: number;
  fd: number;
  /** Bytes appended (pending included). */
  bytes: number;
  /** Bytes on disk: where a failed write is cut back to. */
  written: number;
  openedAt: number;
  unsynced: boolean;
}

export class Journal {
  /**
   * Segments a previous process left, for replay: read one at a time (readLeftover), each deleted
   * once replayed (discardLeftover) — a journal filled by a long outage is never all in memory.
   */
  leftovers: { id: number; bytes: number }[];
  private active: ActiveSegment;
  /** Sealed segments not yet deleted → their size. */
  private readonly sealed = new Map<number, number>();
  /** Records per segment whose rows are not committed yet. */
  private readonly open = new Map<number, number>();
  /** The records of the group not yet written, encoded in place (one buffer, reused group after group). */
  private readonly pending = new RecordGroup();
  /** Rows among the pending records (a session's count record is no row: see journaledRows.ts). */
  private pendingRows = 0;
  private scheduled = false;
  /** A segment was created since the folder was last synced (its name is not durable yet). */
  private folderUnsynced = false;
  private totalBytes = 0;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly unlock: () => void;
  private readonly segmentBytes: number;
  private closed = false;
  readonly counters = { appended: 0, overBudget: 0, writeErrors: 0, notJournaled: 0, syncs: 0 };

  constructor(private readonly options: JournalOptions) {
    makePrivateDir(options.dir);
    this.unlock = lockJournalDir(options.dir);
    const ids = listSegments(options.dir);
    this.leftovers = ids.map((id) => ({ id, bytes: fs.statSync(segmentPath(options.dir, id)).size }));
    for (const leftover of this.leftovers) this.totalBytes += leftover.bytes;
    this.segmentBytes =
      options.segmentBytes ?? Math.max(64 * 1024, Math.min(16 * 1024 * 1024, Math.floor(options.maxBytes / 4)));
    this.active = this.openSegment((ids.at(-1) ?? 0) + 1);
    if (options.fsyncMs > 0) {
      this.timer = setInterval(() => this.tick(), options.fsyncMs);
      this.timer.unref();
    }
  }

  /** Whether a record may be appended within the disk budget. */
  hasRoom(): boolean {
    return this.totalBytes < this.options.maxBytes;
  }

  /** Appends a record (written with this turn's group); returns its segment, to release() once its row is committed. */
  append(entry: JournalEntry, texts?: RawTexts): number {
    this.beginRecord();
    return this.counted(entry.k, this.pending.append(entry, texts));
  }

  /**
   * Appends the record of `row` (its fields but `omit`) as append does, encoded from the row itself
   * (recordCodec.ts ROW_FORMAT): what the recorder's rows are journaled with.
   */
  appendRow(kind: JournalEntry['k'], row: object, omit?: ReadonlySet<string>): number {
    this.beginRecord();
    return this.counted(kind, this.pending.appendRow(kind, row, omit));
  }

  /** Before a record: a full segment is sealed and the next begun. */
  private beginRecord(): void {
    if (this.active.bytes >= this.segmentBytes) {
      // Never thrown at the proxy: a segment that cannot be begun (disk full) leaves the old one growing.
      try {
        this.rotate();
      } catch (error) {
        this.counters.writeErrors++;
        this.options.log?.error({ err: error }, 'recording journal could not begin a segment');
      }
    }
  }

  /** A record of `recordBytes` appended to the group: counted in its segment, the group's write scheduled. */
  private counted(kind: JournalEntry['k'], recordBytes: number): number {
    this.active.bytes += recordBytes;
    this.totalBytes += recordBytes;
    if (kind !== 'n') {
      this.counters.appended++;
      this.pendingRows++;
    }
    const id = this.active.id;
    this.open.set(id, (this.open.get(id) ?? 0) + 1);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.commitNow());
    }
    return id;
  }

  /**
   * Begins a new segment now: the records so far go with their segment as soon as their rows are
   * committed, rather than when the segment fills (a deleted workspace's records: docs/operations.md).
   */
  sealActive(): void {
    if (this.closed || this.active.bytes === 0) return;
    try {
      this.rotate();
    } catch (error) {
      this.counters.writeErrors++;
      this.options.log?.error({ err: error }, 'recording journal could not begin a segment');
    }
  }

  /** Counts a record refused for the budget. */
  noteOverBudget(): void {
    this.counters.overBudget++;
  }

  /** `count` records of the segment have their rows committed: a sealed segment with none left is deleted. */
  release(segment: number, count = 1): void {
    const left = (this.open.get(segment) ?? 0) - count;
    if (left > 0) {
      this.open.set(segment, left);
      return;
    }
    this.open.delete(segment);
    if (this.sealed.has(segment)) this.deleteSealed(segment);
  }

  /** Called before each group of records is written: a last chance to append to it (journaledRows.ts). */
  beforeCommit: (() => void) | undefined;

  /** Writes the records appended so far to the kernel now (one write); the data survives a process kill from here on. */
  commitNow(): void {
    if (this.pending.length > 0) this.beforeCommit?.();
    this.writePending();
  }

  /** The group as it is, without the last chance (a segment's end: the records go with the next group). */
  private writePending(): void {
    this.scheduled = false;
    if (this.pending.length === 0 || this.closed) return;
    const bytes = this.pending.length;
    const rows = this.pendingRows;
    this.pendingRows = 0;
    const active = this.active;
    try {
      // Synchronous: the group's buffer is free for the next group once this returns.
      const written = fs.writeSync(active.fd, this.pending.bytes, 0, bytes);
      // A full disk may take part of a write and refuse the rest: a cut record would end the
      // segment's replay there (and hide the records after it), so the part goes too.
      if (written < bytes) throw Object.assign(new Error('short write to the journal'), { code: 'ENOSPC' });
      active.written += bytes;
      active.unsynced = true;
      if (this.options.fsyncMs === 0) this.syncNow();
    } catch (error) {
      this.notJournaled(active, bytes, rows, error);
    } finally {
      this.pending.reset();
    }
  }

  /**
   * A write that did not reach the disk (ENOSPC, EIO, the budget of a small file system): the
   * proxy serves on and the rows still go to the database from memory; only a kill before they
   * do loses them. Counted (health: notJournaled), logged, and the segment cut back to its last
   * whole record so what follows stays replayable.
   */
  private notJournaled(active: ActiveSegment, bytes: number, rows: number, error: unknown): void {
    this.counters.writeErrors++;
    this.counters.notJournaled += rows;
    active.bytes -= bytes;
    this.totalBytes -= bytes;
    try {
      fs.ftruncateSync(active.fd, active.written);
    } catch {
      // the next write's records follow the cut; replay stops at it (counted as a damaged segment)
    }
    this.options.log?.error({ err: error, rows }, 'recording journal write failed: rows kept in memory only');
  }

  readLeftover(id: number): LeftoverSegment {
    return readSegment(this.options.dir, id);
  }

  /** Deletes a segment a previous process left (after its rows were replayed). */
  discardLeftover(id: number): void {
    const leftover = this.leftovers.find((l) => l.id === id);
    if (!leftover) return;
    fs.rmSync(segmentPath(this.options.dir, id), { force: true });
    this.totalBytes -= leftover.bytes;
    this.leftovers = this.leftovers.filter((l) => l !== leftover);
  }

  discardLeftovers(): void {
    for (const { id } of [...this.leftovers]) this.discardLeftover(id);
  }

  stats(): JournalStats {
    return { bytes: this.totalBytes, segments: this.sealed.size + 1 + this.leftovers.length, ...this.counters };
  }

  /** Writes and syncs what is appended; deletes every segment whose rows are all committed (a clean shutdown leaves none). */
  close(): void {
    if (this.closed) return;
    this.commitNow();
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.syncNow();
    fs.closeSync(this.active.fd);
    const activeId = this.active.id;
    this.sealed.set(activeId, this.active.bytes);
    for (const id of [...this.sealed.keys()]) if (!this.open.has(id)) this.deleteSealed(id);
    this.unlock();
  }

  private openSegment(id: number): ActiveSegment {
    const fd = openPrivateAppend(segmentPath(this.options.dir, id));
    this.folderUnsynced = true;
    return { id, fd, bytes: 0, written: 0, openedAt: Date.now(), unsynced: false };
  }

  /** Seals the active segment (written, synced and closed off the event loop) and begins the next. */
  private rotate(): void {
    this.writePending();
    const old = this.active;
    const next = this.openSegment(old.id + 1);
    this.active = next;
    this.sealed.set(old.id, old.bytes);
    // Always synced before closing (cheap when nothing is dirty); a sync the interval started earlier
    // on this fd was queued first, so it is under way before the close runs.
    fs.fdatasync(old.fd, () => fs.close(old.fd, () => undefined));
    if (!this.open.has(old.id)) this.deleteSealed(old.id);
  }

  /** Synchronous: one unlink per segment (megabytes of records), and the folder never lists a deleted segment. */
  private deleteSealed(id: number): void {
    this.totalBytes -= this.sealed.get(id) ?? 0;
    this.sealed.delete(id);
    fs.rmSync(segmentPath(this.options.dir, id), { force: true });
  }

  private syncNow(): void {
    if (this.folderUnsynced) {
      this.folderUnsynced = false;
      syncPath(this.options.dir);
    }
    if (!this.active.unsynced) return;
    this.active.unsynced = false;
    fs.fdatasyncSync(this.active.fd);
    this.counters.syncs++;
  }

  /** The fsync interval: sync what was written; an idle segment whose rows are all committed is rotated away. */
  private tick(): void {
    if (this.folderUnsynced) {
      this.folderUnsynced = false;
      // A new segment's name is durable only once its folder is synced (fileSync.ts).
      syncPathLater(this.options.dir).catch((error: unknown) => {
        this.folderUnsynced = true;
        this.options.log?.error({ err: error }, 'recording journal folder fsync failed');
      });
    }
    const active = this.active;
    if (
      active.bytes > 0 &&
      !this.open.has(active.id) &&
      this.pending.length === 0 &&
      Date.now() - active.openedAt >= this.options.fsyncMs
    ) {
      try {
        this.rotate();
        return;
      } catch (error) {
        this.counters.writeErrors++;
        this.options.log?.error({ err: error }, 'recording journal could not begin a segment');
      }
    }
    if (active.unsynced) {
      active.unsynced = false;
      fs.fdatasync(active.fd, (error) => {
        if (error) this.options.log?.error({ err: error }, 'recording journal fdatasync failed');
        else this.counters.syncs++;
      });
    }
  }
}
