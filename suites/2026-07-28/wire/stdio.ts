// The stdio client side of 2026-07-28 as the judge needs it: spawn the server, one JSON-RPC message per line
// each way (basic-transports-stdio.md), stderr kept apart.
//
// Our own transport over child_process, not the SDK's: `StdioClientTransport` of @modelcontextprotocol/client
// 2.x skips stdout lines that are not JSON without a word and drops (reports only as a schema error) messages
// its zod schema refuses; a judge must see every line the target wrote, as written ("The server MUST NOT write
// anything to its stdout that is not a valid MCP message" is for a check to judge, not for the driver to hide).
import { spawn, type ChildProcess } from 'node:child_process';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { LineReader } from '../../wire/line-reader.ts';
import { trackChild } from '../../wire/children.ts';

/** Longest stdout line kept (counted as LineReader counts: UTF-16 code units); a longer line is dropped whole and reported. */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;

export interface ModernStdioOptions {
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
}

export class ModernStdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Called with every chunk the process writes to stderr. */
  onstderr?: (text: string) => void;
  process?: ChildProcess;
  private readonly lines = new LineReader((line) => this.line(line), {
    maxLength: MAX_LINE_BYTES,
    onOverlong: () => this.onerror?.(new Error(`stdout line longer than ${MAX_LINE_BYTES} bytes (dropped)`)),
  });
  /** Set by close(): the exit that follows is ours (the Peer records who closed), not the target's. */
  private closing = false;

  constructor(private readonly opts: ModernStdioOptions) {}

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.opts.command, this.opts.args ?? [], {
        env: { ...(process.env as Record<string, string>), ...(this.opts.env ?? {}) },
        cwd: this.opts.cwd,
        stdio: ['pipe', 'pipe', 'pipe'],
        shell: false,
      });
      this.process = child;
      trackChild(child);
      child.once('error', (e) => {
        reject(e);
        this.onerror?.(e);
      });
      child.once('spawn', () => resolve());
      child.once('close', () => (this.closing ? undefined : this.onclose?.()));
      child.stdin.on('error', (e) => this.onerror?.(e));
      // A last line without its newline stays unread (lines.end() is not called), as this transport always did.
      child.stdout.on('data', (chunk: Buffer) => this.lines.push(chunk));
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (chunk: string) => this.onstderr?.(chunk));
    });
  }

  private line(line: string): void {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      this.onerror?.(new Error(`stdout line is not JSON: ${JSON.stringify(line.slice(0, 300))}`));
      return;
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      this.onerror?.(new Error(`stdout line is not a JSON-RPC message: ${JSON.stringify(line.slice(0, 300))}`));
      return;
    }
    // Delivered as written, valid or not: the checks judge the message.
    this.onmessage?.(v as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(JSON.stringify(message) + '\n');
  }

  /** Writes text as is (a raw line of a test). */
  write(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.process?.stdin;
      if (!stdin || stdin.destroyed || this.process?.exitCode !== null) return reject(new Error('process not running'));
      stdin.write(text, (e) => (e ? reject(e) : resolve()));
    });
  }

  /** Closes stdin (the graceful shutdown of basic-transports-stdio.md), then kills the process if it does not exit within a second. */
  async close(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    this.closing = true;
    const exited = new Promise<void>((r) => child.once('close', () => r()));
    child.stdin?.end();
    const t = setTimeout(() => child.kill('SIGKILL'), 1_000);
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
    clearTimeout(t);
  }
}
