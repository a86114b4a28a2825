import net from 'node:net';
import type { AddressInfo } from 'node:net';

/** A port of 127.0.0.1 that nothing listens on (it was free a moment ago): an unreachable upstream. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const port = (probe.address() as AddressInfo).port;
      probe.close(() => resolve(port));
    });
  });
}
