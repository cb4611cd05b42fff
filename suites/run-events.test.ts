// The run's events (RunOptions onRunStart / onCheckStart / onCheckDone): what the CLI's progress hangs on,
// called the same by runConformance and the CLI (runSession).
import { describe, expect, it } from 'vitest';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { runConformance } from './api.ts';
import { runOptions } from './engine/options.ts';
import { createSdkTasksServer } from '../fixtures/sdk-tasks-server.ts';

describe('run events', () => {
  it('announce every check once before any starts, then a start and a result per check', async () => {
    const events: string[] = [];
    let announced: string[] = [];
    const report = await runConformance(
      async () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        await createSdkTasksServer().connect(server);
        return client;
      },
      {
        profile: 'fixtures/sdk-tasks-server.profile.json',
        discover: 'off',
        only: ['capabilities'],
        onRunStart: (checks) => {
          events.push('run');
          announced = checks.map((c) => c.id);
        },
        onCheckStart: (c) => events.push(`start ${c.id}`),
        onCheckDone: (r) => events.push(`done ${r.id}`),
      },
    );
    const ids = report.checks.map((c) => c.id);
    expect(events[0]).toBe('run');
    expect(events.filter((e) => e === 'run')).toHaveLength(1);
    expect([...announced].sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const start = events.indexOf(`start ${id}`);
      expect(start, id).toBeGreaterThan(0);
      expect(events.indexOf(`done ${id}`), id).toBeGreaterThan(start);
      expect(events.filter((e) => e === `done ${id}`)).toHaveLength(1);
    }
  });

  it('are functions or absent', () => {
    expect(() => runOptions({ onCheckDone: 5 as never })).toThrow(/onCheckDone takes a function/);
    expect(runOptions({ onCheckDone: undefined }).concurrency).toBeGreaterThan(0);
  });
});
