import pg from 'pg';

// PostgreSQL's LISTEN for the live stream across instances, on a connection of its own: LISTEN is
// per connection, and pooled connections come and go. When the connection is lost it is opened
// again and every channel listened to anew, so live events keep crossing instances after a
// database restart (those sent while it was down are missed).

export const LISTENER_RECONNECT_MS = 1_000;

export class PgListener {
  private connection: Promise<pg.Client> | undefined;
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly url: string,
    private readonly onBackgroundError: (error: Error) => void,
  ) {}

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.connect();
    let set = this.handlers.get(channel);
    if (!set) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
    }
    set.add(onPayload);
    return () => {
      set.delete(onPayload);
      return Promise.resolve();
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = await this.connection?.catch(() => undefined);
    if (client) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
    }
  }

  private connect(): Promise<pg.Client> {
    this.connection ??= (async () => {
      const client = new pg.Client({ connectionString: this.url });
      client.on('notification', (msg) => {
        for (const handler of this.handlers.get(msg.channel) ?? []) handler(msg.payload ?? '');
      });
      client.on('error', (error) => {
        // Once closed, a connection dropping is the expected end, not something to report.
        if (!this.closed) this.onBackgroundError(error);
        this.lost(client);
      });
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
      } catch (error) {
        this.connection = undefined;
        throw error;
      }
      this.client = client;
      return client;
    })();
    return this.connection;
  }

  private lost(client: pg.Client): void {
    client.removeAllListeners('end');
    void client.end().catch(() => undefined);
    if (client !== this.client) return;
    this.client = undefined;
    this.connection = undefined;
    this.scheduleRelisten();
  }

  private scheduleRelisten(): void {
    if (this.closed || this.handlers.size === 0 || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.relisten().catch((error: unknown) => {
        if (this.closed) return;
        this.onBackgroundError(error instanceof Error ? error : new Error(String(error)));
        this.scheduleRelisten();
      });
    }, LISTENER_RECONNECT_MS);
    this.reconnectTimer.unref();
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    const client = await this.connect();
    for (const channel of this.handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
  }
}
