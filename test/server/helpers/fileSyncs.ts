import fs from 'node:fs';

/**
 * Records every fsync made by path (src/server/files/fileSync.ts), on the event loop or off it, as
 * `sync <path>` in `events` (a test may push its own events beside them to check the order).
 * Undone by jest.restoreAllMocks().
 */
export function watchFileSyncs(events: string[] = []): string[] {
  const paths = new Map<number, string>();
  const openSync = fs.openSync;
  jest.spyOn(fs, 'openSync').mockImplementation((target, ...rest) => {
    const fd = openSync(target, ...rest);
    paths.set(fd, String(target));
    return fd;
  });
  const fsyncSync = fs.fsyncSync;
  jest.spyOn(fs, 'fsyncSync').mockImplementation((fd) => {
    events.push(`sync ${paths.get(fd) ?? `fd ${fd}`}`);
    fsyncSync(fd);
  });
  const open = fs.promises.open;
  jest.spyOn(fs.promises, 'open').mockImplementation(async (target, ...rest) => {
    const handle = await open(target, ...rest);
    const sync = handle.sync.bind(handle);
    handle.sync = () => {
      events.push(`sync ${String(target)}`);
      return sync();
    };
    return handle;
  });
  return events;
}
