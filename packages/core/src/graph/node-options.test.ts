/**
 * Which options table a node's kernel sees as `builtinData` (micro-graph.ts's nodeOptions): TFLite's
 * ParseOpData reads `builtin_options_2` for the StableHLO ops that have one and `builtin_options` for
 * every other op. Regression of the fuzz reproducer `bad-message-fully-connected-weights-format-s3-c751`:
 * a StableHLO node mutated into FULLY_CONNECTED kept only its `builtin_options_2` table, which reached
 * the FULLY_CONNECTED kernel as its options (`weights_format undefined (shuffled weights) is not
 * supported`) instead of null (TFLite's defaults).
 */
import { describe, expect, it } from 'vitest';
import { BuiltinOperator } from '../builtin-ops.js';
import type { Node, Registration } from '../kernel/api.js';
import { ModelBuilder } from '../model/model-builder.js';
import { loadModel } from '../model/loader.js';
import { builtinOptions2TypeForOp } from '../model/options-map.js';
import { writeModel } from '../model/writer.js';
import { OpResolver } from '../resolver/op-resolver.js';
import { MicroInterpreter } from '../interpreter/micro-interpreter.js';
import { TestLinearPlanner } from '../interpreter/__fixtures__/tiny-models.js';
import { TensorType } from '../types.js';

/** A kernel for `code` that records the builtinData its node was given and copies input 0 to output 0. */
function recorder(code: BuiltinOperator, seen: Node['builtinData'][]): Registration {
  return {
    builtinCode: code,
    provider: 'core-test',
    prepare(_ctx, node) {
      seen.push(node.builtinData);
    },
    invoke(ctx, node) {
      ctx.getEvalTensor(node.outputs[0]!).bytes.set(ctx.getEvalTensor(node.inputs[0]!).bytes);
    },
  };
}

/** One `code` node [4] → [4] carrying a StablehloConcatenateOptions table (dimension 3); `v1: false` strips its builtin_options. */
function model(code: BuiltinOperator, v1: boolean): Uint8Array {
  const b = new ModelBuilder();
  const x = b.addTensor({ name: 'x', type: TensorType.FLOAT32, shape: [4] });
  const y = b.addTensor({ name: 'y', type: TensorType.FLOAT32, shape: [4] });
  const type = builtinOptions2TypeForOp(BuiltinOperator.STABLEHLO_CONCATENATE);
  b.addOperator({ op: code, inputs: [x], outputs: [y], options2: { type, fields: [{ id: 0, type: 'int64', value: 3 }] } });
  b.setInputs([x]).setOutputs([y]);
  const def = b.buildDef();
  if (!v1) {
    def.subgraphs[0]!.operators[0]!.builtinOptionsType = 0;
    def.subgraphs[0]!.operators[0]!.builtinOptions = null;
  }
  return writeModel(def);
}

function optionsSeen(code: BuiltinOperator, v1: boolean): Node['builtinData'] {
  const seen: Node['builtinData'][] = [];
  const resolver = new OpResolver();
  resolver.register(recorder(code, seen));
  const loaded = loadModel(model(code, v1));
  expect(loaded.subgraphs[0]!.operators[0]!.builtinOptions2Type).toBe(builtinOptions2TypeForOp(BuiltinOperator.STABLEHLO_CONCATENATE));
  new MicroInterpreter(loaded, resolver, { planner: new TestLinearPlanner() }).allocateTensors();
  expect(seen).toHaveLength(1);
  return seen[0]!;
}

describe('node options (builtin_options vs builtin_options_2)', () => {
  it('a FULLY_CONNECTED carrying only a StableHLO builtin_options_2 table gets null (TFLite applies its defaults)', () => {
    expect(optionsSeen(BuiltinOperator.FULLY_CONNECTED, false)).toBeNull();
  });

  it('a FULLY_CONNECTED with both tables gets its FullyConnectedOptions', () => {
    expect(optionsSeen(BuiltinOperator.FULLY_CONNECTED, true)).toMatchObject({ weightsFormat: 0, keepNumDims: false });
  });

  it('the StableHLO op the table belongs to gets it', () => {
    expect(optionsSeen(BuiltinOperator.STABLEHLO_CONCATENATE, false)).toEqual({ dimension: 3 });
  });
});
