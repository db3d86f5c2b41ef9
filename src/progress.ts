// A one-line status for long work on the command line (mining, measuring): redrawn in place
// on stderr, and only when stderr is a terminal, so piped or logged output stays clean.

const FRAMES = '⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏';

export class Progress {
  private readonly enabled: boolean;
  private readonly started = Date.now();
  private timer: NodeJS.Timeout | undefined;
  private frame = 0;

  /** `detail` is asked for extra text (e.g. an estimate) at every redraw. */
  constructor(
    private label: string,
    private readonly detail?: (elapsedMs: number) => string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.enabled = stream.isTTY === true && process.env.TERM !== 'dumb';
    if (!this.enabled) return;
    this.draw();
    // The work runs on native threads, so the event loop is free to redraw.
    this.timer = setInterval(() => this.draw(), 100);
    this.timer.unref();
  }

  update(label: string): void {
    this.label = label;
    if (this.enabled) this.draw();
  }

  /** Erase the line; the caller prints the result. */
  done(): void {
    if (!this.enabled) return;
    clearInterval(this.timer);
    this.stream.write('\r\x1b[K');
  }

  private draw(): void {
    const elapsed = Date.now() - this.started;
    const extra = this.detail?.(elapsed);
    const text = `${FRAMES[this.frame++ % FRAMES.length]} ${this.label} ${(elapsed / 1000).toFixed(1)} s${extra ? ` · ${extra}` : ''}`;
    const width = this.stream.columns || 80;
    this.stream.write(`\r\x1b[K${text.length >= width ? text.slice(0, width - 1) : text}`);
  }
}

/** Run `work` with a progress line, erased when it settles. */
export async function withProgress<T>(
  label: string,
  work: () => Promise<T>,
  detail?: (elapsedMs: number) => string,
): Promise<T> {
  const progress = new Progress(label, detail);
  try {
    return await work();
  } finally {
    progress.done();
  }
}
