import { describe, expect, it } from 'vitest';
import { Progress, type ProgressOutput, formatDuration, progressAllowed, progressBar, terminalProgressLine } from './progress.js';

const tty = { isTTY: true };
const pipe = { isTTY: false };

describe('progressAllowed', () => {
  it('needs stdout and stderr on a terminal and no CI', () => {
    expect(progressAllowed({ env: {}, stdout: tty, stderr: tty })).toBe(true);
    expect(progressAllowed({ env: {}, stdout: pipe, stderr: tty })).toBe(false);
    expect(progressAllowed({ env: {}, stdout: tty, stderr: pipe })).toBe(false);
    expect(progressAllowed({ env: {}, stdout: {}, stderr: tty })).toBe(false);
    expect(progressAllowed({ env: { CI: 'true' }, stdout: tty, stderr: tty })).toBe(false);
    expect(progressAllowed({ env: { CI: '1' }, stdout: tty, stderr: tty })).toBe(false);
    expect(progressAllowed({ env: { CI: 'false' }, stdout: tty, stderr: tty })).toBe(true);
    expect(progressAllowed({ env: { CI: '' }, stdout: tty, stderr: tty })).toBe(true);
  });
});

describe('terminalProgressLine', () => {
  it('redraws in place at most every 100 ms, truncates to the width and clears on an empty line', () => {
    const written: string[] = [];
    let t = 0;
    const line = terminalProgressLine({ write: (s: string) => written.push(s), columns: 30 }, { now: () => t });
    line('first');
    t = 50;
    line('dropped: too soon');
    t = 120;
    line('x'.repeat(100));
    line('');
    line(''); // nothing drawn: nothing to clear
    t = 130;
    line('after a clear');
    expect(written).toEqual(['\rfirst\x1b[K', `\r${'x'.repeat(28)}…\x1b[K`, '\r\x1b[K', '\rafter a clear\x1b[K']);
  });
});

describe('Progress', () => {
  function sink() {
    const lines: string[] = [];
    const out: ProgressOutput = { progress: (l) => lines.push(l) };
    return { out, lines };
  }

  it('draws a bar, the percentage, an ETA from the rate so far, the label and done/total', () => {
    const s = sink();
    let t = 1000;
    const p = new Progress(s.out, { now: () => t, barWidth: 10 });
    p.update('bench m [reference]', 0, 8);
    t += 2000;
    p.update('bench m [reference]', 2, 8);
    t += 6000;
    p.update('bench m [reference]', 8, 8);
    p.done();
    expect(s.lines).toEqual([
      '░░░░░░░░░░   0%  bench m [reference] 0/8',
      '██░░░░░░░░  25% eta 6s  bench m [reference] 2/8',
      '██████████ 100%  bench m [reference] 8/8',
      '',
    ]);
  });

  it('restarts the clock for a new label, shows a detail instead of the counts, and open-ended work', () => {
    const s = sink();
    let t = 0;
    const p = new Progress(s.out, { now: () => t, barWidth: 4 });
    p.update('a', 1, 2);
    t = 100_000;
    p.update('b', 1, 4, '1 of 4 models');
    t = 190_000;
    p.update('b', 2, 4);
    p.update('fuzz', 17, 0, '17 cases');
    expect(s.lines).toEqual([
      '██░░  50% eta 0s  a 1/2',
      '█░░░  25% eta 0s  b 1 of 4 models',
      '██░░  50% eta 1:30  b 2/4',
      '0s  fuzz 17 cases',
    ]);
  });

  it('draws nothing without a progress sink or when disabled (e.g. --json)', () => {
    const s = sink();
    const off = new Progress(s.out, { enabled: false });
    off.update('x', 1, 2);
    off.done();
    expect(off.active).toBe(false);
    expect(s.lines).toEqual([]);
    const none = new Progress({});
    expect(none.active).toBe(false);
    none.update('x', 1, 2);
    none.done();
  });

  it('formats durations and bars', () => {
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(59_400)).toBe('59s');
    expect(formatDuration(61_000)).toBe('1:01');
    expect(progressBar(0.5, 4)).toBe('██░░');
    expect(progressBar(2, 3)).toBe('███');
    expect(progressBar(-1, 2)).toBe('░░');
  });
});
