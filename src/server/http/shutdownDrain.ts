import type { Server } from 'node:http';

// The last step of a graceful shutdown (app.ts): once close() has begun and no request is in
// flight, the connections left are cut — kept-alive ones, and ones a client opened without
// sending a request yet. Node's server.close() waits for the latter until the client leaves: an
// agent whose stream the proxy closed at shutdown reconnects at once, and its new connection held
// the two-instance test's stopping instance up for ~70 s. Requests already running still finish
// (main.ts cuts what is left after TOOLSCOPE_SHUTDOWN_GRACE_MS). Counting them costs each request
// one counter step and one listener, with no closure made per request.

const CHECK_EVERY_MS = 50;

export interface ShutdownDrain {
  /** close() has begun: cut the connections whenever no request is in flight, until the server has closed. */
  start(): void;
}

export function shutdownDrain(server: Server): ShutdownDrain {
  let inFlight = 0;
  const finished = () => {
    inFlight--;
  };
  server.on('request', (_request, response) => {
    inFlight++;
    response.once('close', finished);
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
