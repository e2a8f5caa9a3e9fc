import { BuiltinOperator } from '../builtin-ops.js';
import type {
  BuiltinOptions,
  BuiltinOptions2,
  CallOnceOptions,
  IfOptions,
  StablehloCaseOptions,
  StablehloCompositeOptions,
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
