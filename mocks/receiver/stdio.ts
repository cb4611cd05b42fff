// The receiver's stdio transport: the SDK's StdioServerTransport, with the messages sent in one turn of the
// event loop written together. Each write to a pipe is a system call of its own, the largest single cost of
// a task over stdio; stdout is corked at the first send of a turn and uncorked at setImmediate (one writev),
// or as soon as HOLD_BYTES wait, so that the requestor works on the first answers while this process still
// handles the rest of what it read (the two work side by side instead of taking turns).
// Order and backpressure stay the stream's own (a full pipe still makes send wait for 'drain').
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** At most this much output waits for the turn's end (a few answers; measured in docs/PERFORMANCE.md). */
export const HOLD_BYTES = 2048;

export class CoalescingStdioServerTransport extends StdioServerTransport {
  private corked = false;

  constructor(
    input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {
    super(input, output);
  }

  /** Writes what the turn queued; also on close and at process exit, so that nothing sent is lost. */
  readonly flush = (): void => {
    if (!this.corked) return;
    this.corked = false;
    this.output.uncork();
  };

  override async start(): Promise<void> {
    await super.start();
    process.once('exit', this.flush);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    if (this.corked && this.output.writableLength >= HOLD_BYTES) this.flush();
    if (!this.corked) {
      this.corked = true;
      this.output.cork();
      setImmediate(this.flush);
    }
    return super.send(message);
  }

  override async close(): Promise<void> {
    this.flush();
    process.off('exit', this.flush);
    return super.close();
  }
}
