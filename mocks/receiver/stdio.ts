// The receiver's stdio transport: the SDK's StdioServerTransport, with the messages sent in one turn of the
// event loop written together. Each write to a pipe is a system call of its own, the largest single cost of
// a task over stdio; stdout is corked at the first send of a turn and uncorked at setImmediate (one writev).
// Order and backpressure stay the stream's own (a full pipe still makes send wait for 'drain').
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

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
    // Half the stream's buffer at most waits for the turn's end: a write never fills it just for being held back.
    if (this.corked && this.output.writableLength >= this.output.writableHighWaterMark / 2) this.flush();
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
