/** The closing line of a vitest run (see vitest-summary.mjs). */
export interface VitestSummary {
  passed: number;
  failed: number;
  skipped: number;
  notes: string[];
  line: string;
}
export function summarizeVitest(report: object | null, exitStatus: number | null, root?: string): VitestSummary;
