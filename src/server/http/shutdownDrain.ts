import type { Server } from 'node:http';

// The last step of a graceful shutdown (app.ts): once close() has begun and no request is in
// flight, the connections left are cut — kept-alive ones, and ones a client opened without
// sending a request yet. Node's server.close() waits for the latter until its headersTimeout (60 s
// and a check every 30 s): an agent whose stream the proxy closed at shutdown reconnects at once,
// and its new connection held a rolling deploy's old instance up for ~70 s. Requests already
// running still finish (main.ts cuts what is left after TOOLSCOPE_SHUTDOWN_GRACE_MS).

const CHECK_EVERY_MS = 50;

export interface ShutdownDrain {
  /** close() has begun: cut the connections whenever no request is in flight, until the server has closed. */
  start(): void;
}

export function shutdownDrain(server: Server): ShutdownDrain {
  let inFlight = 0;
  server.on('request', (_request, response) => {
    inFlight++;
    response.once('close', () => inFlight--);
  });
  return {
    start() {
      if (!server.listening) return;
      const timer = setInterval(() => {
        if (inFlight === 0) server.closeAllConnections();
      }, CHECK_EVERY_MS);
      timer.unref();
      server.once('close', () => clearInterval(timer));
    },
  };
}
