import readline from 'node:readline';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { ProgramProcess } from './processLauncher';

// MCP's stdio framing over one program: one JSON-RPC message per line on stdin and stdout.
// stdout is for JSON-RPC only: any other line a program prints there (a banner, a stray
// console.log) is handed to `onStray` — logged as a warning — and never reaches an agent.
// stderr lines go to `onStderr`.
export type JsonRpcObject = JSONRPCMessage & {
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
};

export class StdioChannel {
  onMessage: (message: JsonRpcObject) => void = () => undefined;
  onStray: (line: string) => void = () => undefined;
  onStderr: (line: string) => void = () => undefined;

  constructor(readonly program: ProgramProcess) {
    const stdout = readline.createInterface({ input: program.stdout, crlfDelay: Infinity });
    stdout.on('line', (line) => this.readStdoutLine(line));
    const stderr = readline.createInterface({ input: program.stderr, crlfDelay: Infinity });
    stderr.on('line', (line) => this.onStderr(line));
  }

  send(message: JsonRpcObject): void {
    if (!this.program.running || this.program.stdin.writableEnded) return;
    this.program.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private readStdoutLine(line: string): void {
    const trimmed = line.trim();
    if (!trimmed) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      this.onStray(line);
      return;
    }
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    for (const message of messages) {
      if (isJsonRpc(message)) this.onMessage(message);
      else this.onStray(line);
    }
  }
}

function isJsonRpc(value: unknown): value is JsonRpcObject {
  return typeof value === 'object' && value !== null && (value as { jsonrpc?: unknown }).jsonrpc === '2.0';
}
