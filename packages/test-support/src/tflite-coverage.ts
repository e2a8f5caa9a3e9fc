/**
 * How much of TFLite's op set (tflite-op-set.ts) micrort prepares: for every op and type combination,
 * the op's recipe (tflite-op-recipes.ts) is built and handed to `checkModel` with a resolver; the op
 * under test either prepares or is refused with a reason. `tfliteCoverageMarkdown` writes the result
 * as docs/tflite-coverage.md (tflite-op-coverage.test.ts in ops-reference keeps that file current).
 */
import { checkModel, failureReason, loadModel, type OpResolver } from '@micrort/core';
import { TFLITE_OPS, tfliteResolverKey, type TfliteOp, type TypeCombo } from './tflite-op-set.js';
import { buildRecipe, comboLabel } from './tflite-op-recipes.js';
import type { DType } from './tflite-recipe-builder.js';

/** The outcome of one op and type combination in micrort. */
export interface ComboCoverage {
  op: TfliteOp;
  combo: TypeCombo;
  /** `OPKEY inputs→outputs`, e.g. `ADD int16,int16→int16`. */
  key: string;
  /** Whether the op under test resolved and prepared. */
  prepares: boolean;
  /** Why not (load error, no provider, decline or prepare error), when it does not. */
  reason?: string;
}

/** `ADD int16,int16→int16`: the op's resolver key and the combination. */
export function comboKey(op: TfliteOp, combo: TypeCombo): string {
  return `${tfliteResolverKey(op)} ${comboLabel(combo)}`;
}

/** Builds the recipe of `op` for `combo` and asks micrort (with `resolver()`) whether the op under test prepares. */
export function checkCombo(op: TfliteOp, combo: TypeCombo, resolver: () => OpResolver): ComboCoverage {
  const key = comboKey(op, combo);
  const refused = (reason: string): ComboCoverage => ({ op, combo, key, prepares: false, reason });
  const model = buildRecipe(op, combo);
  let report;
  try {
    report = checkModel(loadModel(model.bytes), resolver());
  } catch (e) {
    return refused(`${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`);
  }
  const node = report.nodes.find((n) => n.subgraph === 0 && n.index === model.target);
  if (!node) return refused(report.stopped ? `${report.stopped.name}: ${report.stopped.message}` : 'the node was not checked');
  return node.status === 'ok' ? { op, combo, key, prepares: true } : refused(failureReason(node));
}

/** Every op and type combination of the set, checked. */
export function checkAllCombos(resolver: () => OpResolver): ComboCoverage[] {
  return TFLITE_OPS.flatMap((op) => op.types.map((combo) => checkCombo(op, combo, resolver)));
}

/** The kinds a gap is sorted by. */
export type GapKind = 'missing op' | 'missing type' | 'hybrid' | 'string';

/** The kind of a gap: the whole op missing, a hybrid kernel, a string type, or another type. */
export function gapKind(c: ComboCoverage, opCovered: boolean): GapKind {
  if (!opCovered) return 'missing op';
  if (c.combo.hybrid) return 'hybrid';
  if ([...c.combo.inputs, ...c.combo.outputs].includes('string')) return 'string';
  return 'missing type';
}

/** Counts of a coverage run. */
export interface CoverageSummary {
  builtins: number;
  customs: number;
  ops: number;
  /** Ops with every combination prepared. */
  opsComplete: number;
  /** Ops with at least one combination prepared. */
  opsPartial: number;
  combos: number;
  combosCovered: number;
}

/** The counts of `results`. */
export function summarize(results: readonly ComboCoverage[]): CoverageSummary {
  const byOp = groupByOp(results);
  return {
    builtins: TFLITE_OPS.filter((o) => o.kind === 'builtin').length,
    customs: TFLITE_OPS.filter((o) => o.kind === 'custom').length,
    ops: byOp.size,
    opsComplete: [...byOp.values()].filter((cs) => cs.every((c) => c.prepares)).length,
    opsPartial: [...byOp.values()].filter((cs) => cs.some((c) => c.prepares)).length,
    combos: results.length,
    combosCovered: results.filter((c) => c.prepares).length,
  };
}

/** Results by op, in the set's order. */
export function groupByOp(results: readonly ComboCoverage[]): Map<TfliteOp, ComboCoverage[]> {
  const m = new Map<TfliteOp, ComboCoverage[]>();
  for (const r of results) m.set(r.op, [...(m.get(r.op) ?? []), r]);
  return m;
}

const SHORT: Record<DType, string> = {
  float32: 'f32',
  float16: 'f16',
  bfloat16: 'bf16',
  float64: 'f64',
  int4: 'i4',
  int8: 'i8',
  uint8: 'u8',
  int16: 'i16',
  uint16: 'u16',
  int32: 'i32',
  uint32: 'u32',
  int64: 'i64',
  uint64: 'u64',
  bool: 'bool',
  string: 'str',
  complex64: 'c64',
  complex128: 'c128',
  resource: 'res',
  variant: 'var',
};

/** A short label of a combination: abbreviated types, runs of one type as `i8×8`, `-` for omitted inputs. */
export function shortLabel(c: TypeCombo): string {
  const run = (ts: readonly (DType | null)[]) => {
    const out: string[] = [];
    for (let i = 0; i < ts.length;) {
      let j = i;
      while (j < ts.length && ts[j] === ts[i]) j++;
      const name = ts[i] ? SHORT[ts[i]!] : '-';
      out.push(j - i > 2 ? `${name}×${j - i}` : Array.from({ length: j - i }, () => name).join(','));
      i = j;
    }
    return out.join(',');
  };
  return `${run(c.inputs)}→${run(c.outputs)}${c.hybrid ? ' (hybrid)' : ''}`;
}

/**
 * docs/tflite-coverage.md: the counts, the gaps by kind, and one row per op with the type combinations
 * TFLite's kernel takes and those micrort prepares today. `command` is how to regenerate it.
 */
export function tfliteCoverageMarkdown(results: readonly ComboCoverage[], command: string): string {
  const s = summarize(results);
  const byOp = groupByOp(results);
  const kinds = new Map<GapKind, number>();
  const opsMissing: string[] = [];
  for (const [op, cs] of byOp) {
    const covered = cs.some((c) => c.prepares);
    if (!covered) opsMissing.push(tfliteResolverKey(op));
    for (const c of cs) if (!c.prepares) kinds.set(gapKind(c, covered), (kinds.get(gapKind(c, covered)) ?? 0) + 1);
  }
  const lines = [
    '# TFLite op coverage',
    '',
    `<!-- Generated by \`${command}\` from packages/test-support/src/tflite-op-set.ts; do not edit. -->`,
    '',
    "Every op of TFLite's `BuiltinOpResolver` (tensorflow/lite/core/kernels/register.cc: " +
      `${s.builtins} builtins and ${s.customs} custom ops) with the tensor types its kernel accepts, as data in ` +
      '[`tflite-op-set.ts`](../packages/test-support/src/tflite-op-set.ts), and whether micrort (ops-reference + ops-signal) ' +
      "prepares a small model of that op and types built by the op's recipe " +
      '([`tflite-op-recipes.ts`](../packages/test-support/src/tflite-op-recipes.ts)). ' +
      '`packages/ops-reference/test/tflite-op-coverage.test.ts` fails on any gap not in its `KNOWN_TFLITE_GAPS` list.',
    '',
    '| | covered | total |',
    '|---|---:|---:|',
    `| ops with every type combination | ${s.opsComplete} | ${s.ops} |`,
    `| ops with at least one combination | ${s.opsPartial} | ${s.ops} |`,
    `| type combinations | ${s.combosCovered} | ${s.combos} |`,
    '',
    'Gaps by kind (type combinations): ' +
      (['missing op', 'missing type', 'hybrid', 'string'] as GapKind[]).map((k) => `${k} ${kinds.get(k) ?? 0}`).join(', ') +
      '.',
    '',
    `Ops micrort does not prepare at all (${opsMissing.length}): ${opsMissing.join(', ') || 'none'}.`,
    '',
    'Types: `f32` float32, `f16` float16, `bf16` bfloat16, `f64` float64, `i4`/`i8`/`i16`/`i32`/`i64` signed and `u8`/`u16`/`u32`/`u64` ' +
      'unsigned integers, `c64`/`c128` complex, `str` string, `res` resource; `i8×8` eight inputs of one type; `-` an omitted ' +
      'optional input; (hybrid) float activations × quantized weights. An op or combination marked ² is not in TFLite 2.9 ' +
      '(the oracle; tflite-op-set.test.ts checks that 2.9 refuses it) and runs in LiteRT.js 2.5.3 (benchmarks/src/tflite-op-set.litert.test.ts).',
    '',
    '| op | versions | kernel | micrort prepares | micrort lacks |',
    '|---|---|---|---|---|',
  ];
  const fmt = (c: ComboCoverage) => `${shortLabel(c.combo)}${c.combo.after29 ? '²' : ''}`;
  for (const [op, cs] of byOp) {
    const ok = cs.filter((c) => c.prepares).map(fmt);
    const no = cs.filter((c) => !c.prepares).map(fmt);
    const name = `${tfliteResolverKey(op)}${op.after29 ? '²' : ''}`;
    lines.push(
      `| ${name} | ${op.versions[0]}–${op.versions[1]} | ${op.source.split(' ')[0]} | ${ok.join('; ') || '—'} | ${no.join('; ') || '—'} |`,
    );
  }
  return lines.join('\n') + '\n';
}
