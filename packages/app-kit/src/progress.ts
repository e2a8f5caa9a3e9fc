/**
 * Progress display for long commands (the CLI's fuzz, soak, bench and check of a folder; the
 * benchmarks' harness).
 *
 * Two layers: {@link Progress} turns "done of total" into a line (label, bar, percent, ETA, counts or
 * a detail) and hands it to the output's `progress`; {@link terminalProgressLine} is the `progress` of
 * a real terminal, which redraws one line in place on stderr, at most every 100 ms. Apps install it
 * only when {@link progressAllowed}: stdout and stderr are terminals and CI is not set, so pipes,
 * files, CI logs and `--json` runs (commands pass `enabled: false`) get no progress output at all.
 */

/** Where a progress line goes: absent `progress` when no progress may be shown (not a terminal, or CI). */
export interface ProgressOutput {
  /** Draws a progress line in place ('' clears it). */
  progress?(line: string): void;
}

/** Environment variables and streams {@link progressAllowed} looks at (injectable for tests). */
export interface ProgressEnvironment {
  env: Record<string, string | undefined>;
  stdout: { isTTY?: boolean };
  stderr: { isTTY?: boolean };
}

/** True when a progress line may be drawn: both stdout and stderr are terminals and `CI` is unset or false. */
export function progressAllowed(
  where: ProgressEnvironment = { env: process.env, stdout: process.stdout, stderr: process.stderr },
): boolean {
  const ci = where.env['CI'];
  if (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') return false;
  return where.stdout.isTTY === true && where.stderr.isTTY === true;
}

/** A stream a progress line is drawn on. */
export interface ProgressStream {
  write(s: string): unknown;
  columns?: number;
}

/**
 * The `progress` of a terminal: draws `line` in place (carriage return, erase to end of line),
 * truncated to the terminal's width so it never wraps, at most once per `minIntervalMs` (lines in
 * between are dropped); an empty line clears it at once.
 */
export function terminalProgressLine(
  stream: ProgressStream,
  options: { minIntervalMs?: number; now?: () => number } = {},
): (line: string) => void {
  const minIntervalMs = options.minIntervalMs ?? 100;
  const now = options.now ?? (() => performance.now());
  let last = -Infinity;
  let shown = false;
  return (line: string) => {
    if (line === '') {
      if (shown) stream.write('\r\x1b[K');
      shown = false;
      last = -Infinity;
      return;
    }
    const t = now();
    if (t - last < minIntervalMs) return;
    last = t;
    const width = Math.max(20, (stream.columns || 80) - 1);
    stream.write(`\r${line.length > width ? `${line.slice(0, width - 1)}…` : line}\x1b[K`);
    shown = true;
  };
}

/** Options of {@link Progress}. */
export interface ProgressOptions {
  /** False draws nothing (e.g. under `--json`); default true. */
  enabled?: boolean;
  /** Clock in ms (tests). */
  now?: () => number;
  /** Bar width in characters (default 20). */
  barWidth?: number;
}

/** "1:05", "42s". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** A bar of `width` cells for `fraction` (0..1). */
export function progressBar(fraction: number, width: number): string {
  const f = Math.min(1, Math.max(0, fraction));
  const full = Math.floor(f * width);
  return `${'█'.repeat(full)}${'░'.repeat(width - full)}`;
}

/**
 * The progress of one long command. `update(label, done, total, detail?)` draws
 * `████████░░░░░░░░░░░░  40% eta 12s  label detail` (the detail defaults to `done/total`); the ETA
 * comes from the rate since the label's first update. A total of 0 (open-ended work) draws the elapsed
 * time, the label and the detail. `done()` clears the line. With no `progress` (not a terminal) or
 * `enabled: false` every call returns at once.
 */
export class Progress {
  private readonly sink: ((line: string) => void) | null;
  private readonly now: () => number;
  private readonly barWidth: number;
  private label = '';
  private start = 0;

  constructor(out: ProgressOutput, options: ProgressOptions = {}) {
    this.sink = options.enabled === false || !out.progress ? null : out.progress.bind(out);
    this.now = options.now ?? (() => performance.now());
    this.barWidth = options.barWidth ?? 20;
  }

  /** Whether anything is drawn. */
  get active(): boolean {
    return this.sink !== null;
  }

  /** Draws the progress of `label`: `done` of `total` units (total 0: open-ended). */
  update(label: string, done: number, total: number, detail?: string): void {
    if (!this.sink) return;
    const t = this.now();
    if (label !== this.label) {
      this.label = label;
      this.start = t;
    }
    this.sink(this.format(label, done, total, t - this.start, detail));
  }

  /** Clears the line. */
  done(): void {
    this.sink?.('');
  }

  /** The line for `done` of `total` after `elapsedMs`. */
  format(label: string, done: number, total: number, elapsedMs: number, detail?: string): string {
    const tail = detail ?? (total > 0 ? `${done}/${total}` : String(done));
    if (!(total > 0)) return `${formatDuration(elapsedMs)}  ${label} ${tail}`;
    const f = Math.min(1, done / total);
    const eta = done > 0 && f < 1 ? ` eta ${formatDuration((elapsedMs / done) * (total - done))}` : '';
    return `${progressBar(f, this.barWidth)} ${String(Math.floor(f * 100)).padStart(3)}%${eta}  ${label} ${tail}`;
  }
}
