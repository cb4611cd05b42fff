// The reference receiver's stdio transport (mocks/receiver/stdio.ts): the messages of one event-loop turn
// reach stdout together, in the order sent; close writes what is still held back.
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CoalescingStdioServerTransport, HOLD_BYTES } from './receiver/stdio.ts';

function pair() {
  const input = new PassThrough();
  const output = new PassThrough();
  const written: string[] = [];
  output.on('data', (c: Buffer) => written.push(c.toString('utf8')));
  const t = new CoalescingStdioServerTransport(input, output);
  const text = () => written.join('');
  /** The ids of the messages written so far, in order. */
  const ids = () =>
    text()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).id);
  return { t, input, output, text, ids };
}

const msg = (id: number) => ({ jsonrpc: '2.0' as const, id, result: { n: id } });

describe('CoalescingStdioServerTransport', () => {
  it('holds the sends of one turn back and writes them together, in order', async () => {
    const { t, text, ids } = pair();
    await t.start();
    const sent = [t.send(msg(1)), t.send(msg(2)), t.send(msg(3))];
    await Promise.all(sent); // resolved without waiting for the turn's end (the buffer has room)
    expect(text()).toBe('');
    await nextTurn();
    await nextTurn();
    expect(ids()).toEqual([1, 2, 3]);
    await t.close();
  });

  it('writes what is held back when closed', async () => {
    const { t, text } = pair();
    await t.start();
    await t.send(msg(7));
    await t.close();
    await nextTurn();
    expect(text()).toBe(`${JSON.stringify(msg(7))}\n`);
  });

  it('does not hold back more than HOLD_BYTES: a large turn is written as it goes', async () => {
    const { t, text, ids } = pair();
    await t.start();
    const big = { jsonrpc: '2.0' as const, id: 1, result: { pad: 'x'.repeat(HOLD_BYTES) } };
    await t.send(big);
    expect(text()).toBe('');
    const second = t.send(msg(2)); // past HOLD_BYTES: the first goes out now, this one at the turn's end
    await new Promise((r) => process.nextTick(r));
    expect(ids()).toEqual([1]);
    await second;
    await nextTurn();
    expect(ids()).toEqual([1, 2]);
    await t.close();
  });

  it('still reads messages and reports unparsable lines (the SDK transport underneath)', async () => {
    const { t, input } = pair();
    const got: unknown[] = [];
    const errors: Error[] = [];
    t.onmessage = (m) => got.push(m);
    t.onerror = (e) => errors.push(e);
    await t.start();
    input.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\nnot json\n');
    await nextTurn();
    expect(got).toEqual([{ jsonrpc: '2.0', id: 1, method: 'ping' }]);
    expect(errors).toHaveLength(1);
    await t.close();
  });
});
