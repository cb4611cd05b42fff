// Progress of a run on a terminal: one status line on stderr, redrawn in place (discovery, then checks
// done/total overall and in the section that is running, the check running, the time elapsed). Only on
// a TTY and never in CI, with --json or with --no-color: there only the final report is printed.

export interface ProgressOutput {
  write(s: string): void;
  /** Terminal width, when known: the line is cut to it so that it redraws in place. */
  columns?: number;
}

/** Whether a run shows progress: stderr is a terminal, not CI, no --json, no --no-color. */
export function progressWanted(o: { isTTY: boolean; env: Record<string, string | undefined>; json: boolean; noColor: boolean }): boolean {
  return o.isTTY && !o.env.CI && !o.json && !o.noColor;
}

export class RunProgress {
  private readonly started: number;
  private phase = '';
  private total = 0;
  private readonly sectionTotal = new Map<string, number>();
  private readonly sectionDone = new Map<string, number>();
  private done = 0;
  /** Running checks, in start order, with their section. */
  private readonly running = new Map<string, string>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private drawn = false;

  constructor(
    private readonly out: ProgressOutput,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** Redraws every second so that the elapsed time moves while a long check runs. */
  startTicking(ms = 1_000): void {
    this.timer ??= setInterval(() => this.render(), ms);
    this.timer.unref?.();
  }

  setPhase(text: string): void {
    this.phase = text;
    this.render();
  }

  /** The checks of the run, by section (from the collected test files). */
  addChecks(sections: Iterable<string>): void {
    for (const s of sections) {
      this.total++;
      this.sectionTotal.set(s, (this.sectionTotal.get(s) ?? 0) + 1);
    }
    this.render();
  }

  start(id: string, section: string): void {
    this.phase = '';
    this.running.set(id, section);
    this.render();
  }

  finish(id: string, section: string): void {
    this.running.delete(id);
    this.done++;
    this.sectionDone.set(section, (this.sectionDone.get(section) ?? 0) + 1);
    this.render();
  }

  /** The status line as it stands. */
  line(): string {
    const elapsed = `${((this.now() - this.started) / 1000).toFixed(0)} s`;
    if (this.phase) return `[${elapsed}] ${this.phase}`;
    const parts = [`[${elapsed}] ${this.done}/${this.total} checks`];
    const [first] = this.running;
    if (first) {
      const [id, section] = first;
      parts.push(`${section} ${this.sectionDone.get(section) ?? 0}/${this.sectionTotal.get(section) ?? '?'}`);
      parts.push(`running ${id}${this.running.size > 1 ? ` (+${this.running.size - 1})` : ''}`);
    }
    return parts.join(' · ');
  }

  private render(): void {
    const width = this.out.columns && this.out.columns > 10 ? this.out.columns - 1 : 120;
    const text = this.line();
    this.out.write(`\r\x1b[K${text.length > width ? text.slice(0, width - 1) + '…' : text}`);
    this.drawn = true;
  }

  /** Clears the status line (before the final report, or before a line of its own is printed). */
  clear(): void {
    if (this.drawn) this.out.write('\r\x1b[K');
    this.drawn = false;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.clear();
  }
}
