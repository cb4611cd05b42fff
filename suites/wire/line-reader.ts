// Newline-delimited messages out of a byte stream (basic-transports-stdio.md: "Messages are delimited by
// newlines"): the one reader of the judge's stdio transport, the reference client and the bench client.
// It splits and decodes only; what a line means (JSON, a message, a finding) is the caller's.
import { StringDecoder } from 'node:string_decoder';

export interface LineReaderOptions {
  /** Longest line kept (UTF-16 code units, a trailing \r counted); a longer one is dropped whole. Default: no limit. */
  maxLength?: number;
  /** Called once for each line dropped as longer than maxLength, as soon as it is known to be. */
  onOverlong?: () => void;
}

/**
 * Feed it the chunks as they come, split anywhere (inside a multi-byte UTF-8 character too, or between \r and
 * \n); it calls onLine with each line that is not blank, without its \n and one trailing \r. Linear in what it
 * is fed: each chunk is searched once, and only the start of an unfinished line is kept.
 */
export class LineReader {
  private readonly decoder = new StringDecoder('utf8');
  /** The start of a line whose newline has not come yet. */
  private held = '';
  /** The line now coming is longer than maxLength: dropped up to its newline. */
  private dropping = false;
  private readonly max: number;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly opts: LineReaderOptions = {},
  ) {
    this.max = opts.maxLength ?? Infinity;
  }

  push(chunk: Buffer): void {
    const text = this.decoder.write(chunk);
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      this.take(this.held.length + nl - from > this.max ? undefined : this.held + text.slice(from, nl));
      from = nl + 1;
    }
    if (from === text.length || this.dropping) return;
    if (this.held.length + text.length - from > this.max) return this.overlong();
    this.held += from === 0 ? text : text.slice(from);
  }

  /** The stream ended: what came after the last newline (undefined when nothing, blank or dropped); the reader starts afresh. */
  end(): string | undefined {
    const rest = this.held + this.decoder.end();
    const dropping = this.dropping;
    this.held = '';
    this.dropping = false;
    if (dropping) return undefined;
    if (rest.length > this.max) return void this.opts.onOverlong?.();
    return kept(rest);
  }

  /** A line has ended: `line` is its text, undefined when it is over the limit. */
  private take(line: string | undefined): void {
    const dropped = this.dropping;
    this.held = '';
    this.dropping = false;
    if (line === undefined) {
      if (!dropped) this.opts.onOverlong?.();
      return;
    }
    if (dropped) return;
    const text = kept(line);
    if (text !== undefined) this.onLine(text);
  }

  private overlong(): void {
    this.held = '';
    this.dropping = true;
    this.opts.onOverlong?.();
  }
}

/** The line without one trailing \r; undefined when it is blank. */
function kept(line: string): string | undefined {
  const text = line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line;
  return text.trim() === '' ? undefined : text;
}
