import { describe, expect, it } from 'vitest';
import { summarizeVitest as summarize } from './vitest-summary.mjs';

/** vitest's JSON report, reduced to the fields the summary reads. */
function report(files: { name: string; status: string; tests: string[] }[]): object {
  const all = files.flatMap((f) => f.tests);
  return {
    numPassedTests: all.filter((s) => s === 'passed').length,
    numFailedTests: all.filter((s) => s === 'failed').length,
    numPendingTests: all.filter((s) => s === 'skipped' || s === 'pending').length,
    numTodoTests: all.filter((s) => s === 'todo').length,
    testResults: files.map((f) => ({ name: f.name, status: f.status, assertionResults: f.tests.map((status) => ({ status })) })),
  };
}

describe('the closing line counts every failure', () => {
  it('a clean run', () => {
    const s = summarize(report([{ name: '/r/a.test.ts', status: 'passed', tests: ['passed', 'passed', 'skipped'] }]), 0, '/r');
    expect(s.line).toBe('2 passed, 0 failed, 1 skipped');
    expect(s.notes).toEqual([]);
  });

  it('a file whose beforeAll threw: its tests are only "skipped", the file still counts as failed', () => {
    // The shape of the fresh-clone playground failure: vitest marked the 8 tests pending, the file failed.
    const r = report([
      { name: '/r/packages/playground/test/playground.test.ts', status: 'failed', tests: Array(8).fill('skipped') },
      { name: '/r/b.test.ts', status: 'passed', tests: ['passed'] },
    ]);
    const s = summarize(r, 1, '/r');
    expect(s.line).toBe('1 passed, 1 failed, 8 skipped');
    expect(s.notes[0]).toContain('packages/playground/test/playground.test.ts');
  });

  it('a file that did not load at all', () => {
    const s = summarize(report([{ name: '/r/x.test.ts', status: 'failed', tests: [] }]), 1, '/r');
    expect(s.failed).toBe(1);
  });

  it('a file with failing tests counts its tests, not one more', () => {
    const s = summarize(report([{ name: '/r/x.test.ts', status: 'failed', tests: ['failed', 'failed', 'passed'] }]), 1);
    expect(s.line).toBe('1 passed, 2 failed, 0 skipped');
  });

  it('an unhandled error (every test passed, vitest exits 1) is a failure', () => {
    const s = summarize(report([{ name: '/r/x.test.ts', status: 'passed', tests: ['passed'] }]), 1);
    expect(s.failed).toBe(1);
    expect(s.notes.join('\n')).toContain('unhandled error');
  });

  it('no report at all, or a crash by signal', () => {
    expect(summarize(null, 1).failed).toBe(1);
    expect(summarize(null, null).failed).toBe(1);
  });
});
