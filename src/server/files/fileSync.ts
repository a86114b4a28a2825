import fs from 'node:fs';

// fsync by path, for a file (its data reaches the disk) or a folder (its entries do: a file's own
// sync does not make the name that points at it durable, fsync(2)). What Toolscope promises to keep
// through a machine crash — the recording journal, the generated secret, a day's export before its
// data expires — is synced with these.

export function syncPath(target: string): void {
  const fd = fs.openSync(target, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** syncPath off the event loop (libuv's thread pool). */
export async function syncPathLater(target: string): Promise<void> {
  const handle = await fs.promises.open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
