/**
 * MAX_POOL_2D, int8, as TFLM's CMSIS-NN kernel runs it: arm_max_pool_s8, no scratch. Other types are
 * declined.
 */
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { maxPoolS8Emu, maxPoolS8Fast } from '../cmsis/max-pool-s8.js';
import { emptyPoolParams, type PoolParams } from '../cmsis/types-pool.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { poolingSupported, preparePooling } from './pooling-common.js';
import { opData } from '@micrort/kernel-support';

const OP = 'MAX_POOL_2D';

interface MaxPoolData {
  p: PoolParams;
  emu: NodeEmulation;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<MaxPoolData>(OP, node);
  const src = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const dst = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const m = data.emu.machine;
  if (m === null) {
    maxPoolS8Fast(data.p, src, dst);
    return;
  }
  data.emu.record!.invocations++;
  maxPoolS8Emu(m, data.p, src, dst);
}

/** Creates the MAX_POOL_2D registration for the given options. */
export function createMaxPool2D(o: ResolvedOptions): Registration<MaxPoolData> {
  return {
    builtinCode: BuiltinOperator.MAX_POOL_2D,
    version: 3,
    provider: PROVIDER,
    name: 'MAX_POOL_2D/cmsis-nn-s8',
    supports: poolingSupported,
    init: (): MaxPoolData => ({ p: emptyPoolParams(), emu: { machine: null, record: null } }),
    prepare: (context, node) => {
      const data = opData<MaxPoolData>(OP, node);
      preparePooling(OP, context, node, data.p);
      data.emu = nodeEmulation(o, node, OP, 'arm_max_pool_s8');
    },
    invoke,
  };
}
