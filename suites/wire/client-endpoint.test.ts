// The reference requestor's endpoint (scenario task-receiver) serves tools/list like every scenario, and a
// process's stderr is excerpted in whole lines that keep the error message (stderrExcerpt).
import { describe, expect, it } from 'vitest';
import { listenForClient } from './client-endpoint.ts';
import { connectHttp } from './connect.ts';
import { stderrExcerpt } from './peer.ts';

describe('the requestor endpoint', () => {
  it('answers tools/list (an ordinary client lists tools first) and declares tools', async () => {
    const ep = await listenForClient('http', { requestTimeoutMs: 5_000 });
    const peer = await connectHttp({ url: ep.serverArg }, { defaultTimeoutMs: 5_000 });
    try {
      const init = await peer.initialize();
      expect(init.result?.capabilities?.tools).toEqual({});
      const r = await peer.request('tools/list', {});
      expect(r.result).toEqual({ tools: [] });
    } finally {
      await peer.close();
      await ep.close();
    }
  });
});

describe('stderrExcerpt', () => {
  it('keeps the error message and two stack frames, whole lines', () => {
    const node = [
      'starting…',
      "Error: Cannot find module './config.json'",
      'Require stack:',
      '- /app/client.js',
      ...Array.from({ length: 12 }, (_, i) => `    at frame${i} (node:internal/modules/cjs/loader:${i}:1)`),
    ].join('\n');
    const x = stderrExcerpt(node);
    expect(x.split('\n')[0]).toBe("Error: Cannot find module './config.json'");
    expect(x).toContain('frame1');
    expect(x).not.toContain('frame2');
    expect(stderrExcerpt('Traceback (most recent call last):\n  File "a.py", line 1\nModuleNotFoundError: No module named x\n')).toBe(
      'ModuleNotFoundError: No module named x',
    );
  });
  it('without an error line: the last whole lines within the bound', () => {
    const long = Array.from({ length: 50 }, (_, i) => `line ${i} ${'x'.repeat(30)}`).join('\n');
    const x = stderrExcerpt(long, 200);
    expect(x.split('\n').every((l) => /^line \d+ x{30}$/.test(l))).toBe(true);
    expect(x.endsWith('line 49 ' + 'x'.repeat(30))).toBe(true);
  });
});
