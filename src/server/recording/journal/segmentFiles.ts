import fs from 'node:fs';
import path from 'node:path';
import { decodeSegment, type JournalEntry } from './recordCodec';
import { writePrivateFile } from '../../files/privatePaths';

// The journal's folder: numbered segment files (000000000001.journal, …) written in order, and a
// lock file naming the process that owns the folder (two processes appending to one journal would
// replay each other's rows).

const SEGMENT = /^(\d{12})\.journal$/;

export function segmentPath(dir: string, id: number): string {
  return path.join(dir, `${String(id).padStart(12, '0')}.journal`);
}

/** The segment ids in the folder, oldest first. */
export function listSegments(dir: string): number[] {
  return fs
    .readdirSync(dir)
    .map((name) => SEGMENT.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

export interface LeftoverSegment {
  id: number;
  bytes: number;
  entries: JournalEntry[];
  stoppedBy: 'torn' | 'checksum' | null;
}

export function readSegment(dir: string, id: number): LeftoverSegment {
  const bytes = fs.readFileSync(segmentPath(dir, id));
  const decoded = decodeSegment(bytes);
  return { id, bytes: bytes.length, entries: decoded.entries, stoppedBy: decoded.stoppedBy };
}

/**
 * Takes the folder for this process: refuses while another live process holds it. A lock left by a
 * process that was killed (its pid no longer runs) is taken over — that is the crash we recover from.
 */
export function lockJournalDir(dir: string): () => void {
  const lockFile = path.join(dir, 'lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writePrivateFile(lockFile, String(process.pid), 'wx');
      return () => fs.rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number(fs.readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && processRuns(holder)) {
        throw new Error(
          `The recording journal ${dir} is in use by process ${holder}: give each instance its own TOOLSCOPE_JOURNAL_DIR`,
        );
      }
      fs.rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock the recording journal ${dir}`);
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
