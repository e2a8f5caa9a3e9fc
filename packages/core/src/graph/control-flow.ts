import { BuiltinOperator } from '../builtin-ops.js';
import type {
  BuiltinOptions,
  BuiltinOptions2,
  CallOnceOptions,
  IfOptions,
  StablehloCaseOptions,
  StablehloCompositeOptions,
  StablehloReduceWindowOptions,
  StablehloScatterOptions,
  WhileOptions,
} from '../options.js';

const NONE = new Int32Array(0);

/**
 * The subgraphs a builtin control-flow operator invokes, in the order TFLM plans them
 * (AllocationInfoBuilder::MarkSubgraphLifetimesIfNecessary): IF → then, else; WHILE → cond, body;
 * CALL_ONCE → init; and LiteRT's STABLEHLO_COMPOSITE → its decomposition, STABLEHLO_CASE → every branch.
 * Empty for every other operator (and for a control-flow operator without options, whose kernel then
 * refuses it in prepare).
 */
export function invokedSubgraphs(builtinCode: number, options: BuiltinOptions | BuiltinOptions2 | null): Int32Array {
  if (!options) return NONE;
  switch (builtinCode) {
    case BuiltinOperator.IF: {
      const o = options as Partial<IfOptions>;
      return Int32Array.of(o.thenSubgraphIndex ?? 0, o.elseSubgraphIndex ?? 0);
    }
    case BuiltinOperator.WHILE: {
      const o = options as Partial<WhileOptions>;
      return Int32Array.of(o.condSubgraphIndex ?? 0, o.bodySubgraphIndex ?? 0);
    }
    case BuiltinOperator.CALL_ONCE:
      return Int32Array.of((options as Partial<CallOnceOptions>).initSubgraphIndex ?? 0);
    case BuiltinOperator.STABLEHLO_COMPOSITE:
      return Int32Array.of((options as Partial<StablehloCompositeOptions>).decompositionSubgraphIndex ?? 0);
    case BuiltinOperator.STABLEHLO_CASE:
      return Int32Array.from((options as Partial<StablehloCaseOptions>).branchSubgraphIndices ?? []);
    default:
      return NONE;
  }
}

/**
 * The region subgraphs an operator reads but never runs: LiteRT's STABLEHLO_SCATTER (update computation)
 * and STABLEHLO_REDUCE_WINDOW (body) look at their region's single operator to know the computation.
 * A subgraph that is only such a region is neither prepared nor planned (as in LiteRT, which never
 * prepares it): its operators may be ones no kernel takes in its types (a MUL on int64 scalars).
 */
export function regionSubgraphs(builtinCode: number, options: BuiltinOptions | BuiltinOptions2 | null): Int32Array {
  if (!options) return NONE;
  switch (builtinCode) {
    case BuiltinOperator.STABLEHLO_SCATTER:
      return Int32Array.of((options as Partial<StablehloScatterOptions>).updateComputationSubgraphIndex ?? 0);
    case BuiltinOperator.STABLEHLO_REDUCE_WINDOW:
      return Int32Array.of((options as Partial<StablehloReduceWindowOptions>).bodySubgraphIndex ?? 0);
    default:
      return NONE;
  }
}
