/**
 * Alternating rounds: each round runs every process group of runtimes once on the model (a group is a
 * process, or a browser page, of its own: one LiteRT.js build per process), so a load that comes and
 * goes on a shared machine falls on every runtime alike. The rounds' results merge into one per
 * runtime: the median of the round medians, the smallest minimum, the samples together; outputs are
 * compared across groups with the first runtime's that ran.
 */
import { compareOutputs } from './compare.js';
import { fromBase64, type ModelResult, type RuntimeResult } from './harness.js';
import type { RuntimeAdapter } from './runtime.js';
import { median, type TimingOptions } from './timing.js';

/** The runtimes split into process groups, in order of first appearance. */
export function processGroups(runtimes: readonly RuntimeAdapter[]): { group: string; flags: string[]; runtimes: RuntimeAdapter[] }[] {
  const out: { group: string; flags: string[]; runtimes: RuntimeAdapter[] }[] = [];
  for (const r of runtimes) {
    const group = r.group ?? 'default';
    let g = out.find((x) => x.group === group);
    if (!g) out.push((g = { group, flags: [...(r.nodeFlags ?? [])], runtimes: [] }));
    g.runtimes.push(r);
  }
  return out;
}

/** The timing of one round out of `rounds`: the samples and the budget shared out. */
export function roundTiming(timing: Partial<TimingOptions>, defaults: TimingOptions, rounds: number): Partial<TimingOptions> {
  const t = { ...defaults, ...timing };
  return { ...timing, samples: Math.max(3, Math.ceil(t.samples / rounds)), budgetMs: Math.max(500, Math.round(t.budgetMs / rounds)) };
}

/**
 * Merges the results of every round and group of one model (each a ModelResult of some runtimes) into
 * one ModelResult with the runtimes in `order`.
 */
export function mergeRounds(parts: readonly ModelResult[], order: readonly RuntimeAdapter[]): ModelResult {
  const first = parts[0]!;
  const runtimes: RuntimeResult[] = [];
  for (const rt of order) {
    const all = parts.flatMap((p) => p.runtimes.filter((r) => r.runtime === rt.id));
    const ok = all.filter((r) => r.status === 'ok' && r.timing);
    const base = ok[0] ?? all[0] ?? { runtime: rt.id, description: rt.description, status: 'refused' as const, error: 'not run' };
    const merged: RuntimeResult = { ...base };
    delete merged.agreement;
    if (ok.length) {
      const timings = ok.map((r) => r.timing!);
      merged.timing = {
        medianMs: median(timings.map((t) => t.medianMs)),
        minMs: Math.min(...timings.map((t) => t.minMs)),
        batch: timings[0]!.batch,
        samples: timings.reduce((s, t) => s + t.samples, 0),
      };
      merged.rounds = ok.length;
      merged.outputsB64 = ok.find((r) => r.outputsB64)?.outputsB64 ?? base.outputsB64;
    }
    runtimes.push(merged);
  }
  // the reference: the first runtime (in order) whose outputs are known
  const ref = runtimes.find((r) => r.status === 'ok' && r.outputsB64 && r.outputs);
  for (const r of runtimes) {
    if (r === ref || r.status !== 'ok' || !r.outputsB64 || !r.outputs || !ref) continue;
    r.agreement = compareOutputs(ref.outputs!, ref.outputsB64!.map(fromBase64), r.outputs, r.outputsB64.map(fromBase64));
  }
  for (const r of runtimes) delete r.outputsB64;
  return {
    model: first.model,
    kind: first.kind,
    description: first.description,
    inputSource: parts.find((p) => p.inputSource)?.inputSource ?? '',
    reference: ref?.runtime ?? null,
    runtimes,
  };
}
