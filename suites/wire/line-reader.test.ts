// The newline-delimited reader of the judge's stdio transport, the reference client and the bench client:
// the same lines however the byte stream is cut into chunks.
import { describe, expect, it } from 'vitest';
import { LineReader, type LineReaderOptions } from './line-reader.ts';

/** Feeds `bytes` cut at `cuts` (ascending offsets) and ends the stream: the lines, the last unterminated one, the overlong reports. */
function read(bytes: Buffer, cuts: number[], opts: Omit<LineReaderOptions, 'onOverlong'> = {}) {
  const lines: string[] = [];
  let overlong = 0;
  const reader = new LineReader((l) => lines.push(l), { ...opts, onOverlong: () => overlong++ });
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    reader.push(bytes.subarray(from, at));
    from = at;
  }
  return { lines, last: reader.end(), overlong };
}

/** Every way of cutting `bytes` once or twice, and byte by byte. */
function cuttings(bytes: Buffer): number[][] {
  const out: number[][] = [[], Array.from({ length: bytes.length - 1 }, (_, i) => i + 1)];
  for (let i = 1; i < bytes.length; i++) {
    out.push([i]);
    for (let j = i + 1; j < bytes.length; j++) out.push([i, j]);
  }
  return out;
}

describe('LineReader', () => {
  // 2-, 3- and 4-byte UTF-8 characters, CRLF and LF, empty and blank lines, a \r inside a line, no final newline.
  const STREAM = Buffer.from('{"a":"é€😀"}\r\n\n  \r\n{"b":1}\nx\ry\r\n\r\n€😀 tail', 'utf8');

  it('the same lines, without \\n and one trailing \\r, blank ones left out, wherever the chunks are cut', () => {
    const cuts = cuttings(STREAM);
    expect(cuts.length).toBeGreaterThan(STREAM.length * 10);
    for (const c of cuts)
      expect(read(STREAM, c), `cut at ${c.join(',')}`).toEqual({ lines: ['{"a":"é€😀"}', '{"b":1}', 'x\ry'], last: '€😀 tail', overlong: 0 });
  });

  it('end(): nothing after a final newline or only blank text is no line; the reader starts afresh', () => {
    expect(read(Buffer.from('{"a":1}\n'), []).last).toBeUndefined();
    expect(read(Buffer.from('{"a":1}\n \r'), [9]).last).toBeUndefined();
    const lines: string[] = [];
    const reader = new LineReader((l) => lines.push(l));
    reader.push(Buffer.from('one\ntw'));
    expect(reader.end()).toBe('tw');
    reader.push(Buffer.from('o\n'));
    expect(lines).toEqual(['one', 'o']);
  });

  it('bytes that are no UTF-8 read as U+FFFD, cut or not, and a character the stream ends inside too', () => {
    const bytes = Buffer.concat([Buffer.from('a'), Buffer.from([0xff]), Buffer.from('b\n€'), Buffer.from('€').subarray(0, 2)]);
    for (const c of cuttings(bytes)) expect(read(bytes, c), `cut at ${c.join(',')}`).toEqual({ lines: ['a\uFFFDb'], last: '€\uFFFD', overlong: 0 });
  });

  it('a line over maxLength is dropped whole and reported once, wherever it is cut; the lines around it are read', () => {
    // maxLength 8: "12345678" is kept (a trailing \r counts: "1234567\r" too), "123456789" and the 20 x are not.
    const bytes = Buffer.from(`12345678\n123456789\nab\n${'x'.repeat(20)}\r\n1234567\r\nok\n`);
    for (const c of cuttings(bytes))
      expect(read(bytes, c, { maxLength: 8 }), `cut at ${c.join(',')}`).toEqual({ lines: ['12345678', 'ab', '1234567', 'ok'], last: undefined, overlong: 2 });
    expect(read(Buffer.from('1234567\r\r\nok\n'), [], { maxLength: 8 })).toEqual({ lines: ['ok'], last: undefined, overlong: 1 });
  });

  it('an overlong line the stream ends inside (inside a character too) is reported once and is no last line', () => {
    for (const bytes of [Buffer.from(`ok\n${'x'.repeat(20)}`), Buffer.from(`ok\n${'x'.repeat(20)}\xe2\x82`, 'latin1')])
      for (const c of cuttings(bytes))
        expect(read(bytes, c, { maxLength: 8 }), `cut at ${c.join(',')}`).toEqual({ lines: ['ok'], last: undefined, overlong: 1 });
  });

  it('the report comes as soon as the held part is over the limit, before the line ends', () => {
    let overlong = 0;
    const reader = new LineReader(() => undefined, { maxLength: 8, onOverlong: () => overlong++ });
    reader.push(Buffer.from('12345'));
    expect(overlong).toBe(0);
    reader.push(Buffer.from('6789'));
    expect(overlong).toBe(1);
    reader.push(Buffer.from('x'.repeat(100)));
    expect(overlong).toBe(1);
  });
});
