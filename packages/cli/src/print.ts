import { progressAllowed, terminalProgressLine } from '@micrort/app-kit';

/** Where commands print (stdout/stderr in the CLI, buffers in tests). */
export interface Out {
  log(line: string): void;
  err(line: string): void;
  /**
   * A progress line to draw in place ('' clears it). Absent when no progress may be shown (not a
   * terminal, or CI); commands draw through {@link Progress} rather than calling it directly.
   */
  progress?(line: string): void;
}

/** stdout and stderr; a progress line on stderr only when both are terminals and CI is not set. */
export const consoleOut: Out = {
  log: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`${l}\n`),
  ...(progressAllowed() ? { progress: terminalProgressLine(process.stderr) } : {}),
};

/** 1234 → "1,234 B". */
export function formatBytes(n: number): string {
  return `${n.toLocaleString('en-US')} B`;
}

/** Prints rows as an aligned text table. */
export function printTable(out: Out, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  out.log(line(header));
  out.log(line(widths.map((w) => '-'.repeat(w))));
  for (const r of rows) out.log(line(r));
}
