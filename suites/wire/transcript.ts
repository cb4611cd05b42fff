// Rendering a check's transcript (the messages exchanged) as text: console, JUnit <system-out>, Markdown.
import type { TranscriptEntry } from './peer.ts';

/** A JSON-RPC transcript, one line per message (→ sent, ← received, · event), bounded: the first and last lines are kept. */
export function formatTranscript(entries: readonly TranscriptEntry[], maxLines = 120, maxChars = 400): string[] {
  const lines = entries.map((e) => {
    const arrow = e.dir === 'out' ? '→' : e.dir === 'in' ? '←' : '·';
    const body = e.message !== undefined ? JSON.stringify(e.message) : e.raw !== undefined ? `raw ${JSON.stringify(e.raw)}` : '';
    // A note (stderr, transport facts) may span lines: one line per entry.
    const text = [body, e.note?.replace(/\r?\n/g, '⏎')].filter(Boolean).join(' ');
    return `  ${String(e.ms).padStart(6)} ms ${arrow} ${text.length > maxChars ? text.slice(0, maxChars - 1) + '…' : text}`;
  });
  if (lines.length <= maxLines) return lines;
  const head = Math.floor(maxLines / 2);
  return [...lines.slice(0, head), `  … ${lines.length - maxLines} line(s) omitted …`, ...lines.slice(-(maxLines - head))];
}
