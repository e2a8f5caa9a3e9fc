// The closing line CI reads, computed from vitest's JSON report and its exit status. Kept apart from
// scripts/test.mjs so that scripts/vitest-summary.test.ts can check every way a run can fail.

/**
 * Counts a vitest run.
 * @param {object | null} report vitest's JSON report (null when none was written)
 * @param {number | null} exitStatus vitest's exit status (null when it was killed by a signal)
 * @param {string} [root] repository root, stripped from file names in notes
 * @returns {{ passed: number, failed: number, skipped: number, notes: string[], line: string }}
 */
export function summarizeVitest(report, exitStatus, root = '') {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const notes = [];
  if (report) {
    passed = report.numPassedTests ?? 0;
    failed = report.numFailedTests ?? 0;
    skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    // A file that failed without a failing test (it did not load, or a beforeAll/afterAll hook threw and
    // its tests were only marked skipped) is one failure more: vitest says "Test Files N failed" for it.
    for (const f of report.testResults ?? []) {
      if (f.status !== 'failed') continue;
      const failedTests = (f.assertionResults ?? []).filter((a) => a.status === 'failed').length;
      if (failedTests === 0) {
        failed += 1;
        const name = root && f.name.startsWith(root + '/') ? f.name.slice(root.length + 1) : f.name;
        notes.push(`failed file (no failing test recorded): ${name}`);
      }
    }
  } else {
    notes.push('vitest wrote no JSON report');
  }
  // vitest exits non-zero on anything else that went wrong (unhandled errors, a crash, no report):
  // the summary never says 0 failed then.
  if (exitStatus !== 0 && failed === 0) {
    failed = 1;
    notes.push(`vitest exited with status ${exitStatus ?? 'signal'} (unhandled error or crash): counted as one failure`);
  }
  return { passed, failed, skipped, notes, line: `${passed} passed, ${failed} failed, ${skipped} skipped` };
}
