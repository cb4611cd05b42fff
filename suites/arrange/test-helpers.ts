// Test helpers of the arrangers: holding a check's tasks/cancel back until its task has ended, so that the
// retry of a cancel that came too late (retryEndedFirst) is played against a reference peer in either revision.
import type { Message, Peer, Response } from '../wire/peer.ts';
import { isTerminal } from '../../schema/protocol.ts';
import { delay } from './poll.ts';

/**
 * From now on the first `held` tasks/cancel of each check on this connection are sent only once tasks/get (the
 * cancel's own params, so its `_meta` too) shows their task terminal, or after 100 polls 50 ms apart.
 * A check's requests are told apart by their ids (`<check id>-<n>`, 2026-07-28 `<check id>-m<n>`).
 */
export function holdCancels(shared: Peer, held: number): void {
  const raw = shared.requestRaw.bind(shared);
  const cancels = new Map<string, number>();
  shared.requestRaw = async (m: Message, timeoutMs?: number): Promise<Response> => {
    if (m.method === 'tasks/cancel') {
      const check = String(m.id).replace(/-m?\d+$/, '');
      const n = (cancels.get(check) ?? 0) + 1;
      cancels.set(check, n);
      for (let i = 0; n <= held && i < 100; i++) {
        const g = await raw({ jsonrpc: '2.0', id: `held-${check}-${n}-${i}`, method: 'tasks/get', params: m.params });
        if (g.error || isTerminal(g.result?.status)) break;
        await delay(50);
      }
    }
    return raw(m, timeoutMs);
  };
}
