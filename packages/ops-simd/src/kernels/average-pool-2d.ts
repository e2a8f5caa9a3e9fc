/**
 * AVERAGE_POOL_2D, int8, as TFLM's CMSIS-NN kernel (kernels/cmsis_nn/pooling.cc) runs it: arm_avgpool_s8
 * with a scratch row of `C` int32 (arm_avgpool_s8_get_buffer_size, DSP build). Other types are declined.
 */
import { BuiltinOperator, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { avgpoolS8BufferSize, avgpoolS8Emu, avgpoolS8Fast } from '../cmsis/avgpool-s8.js';
import { emptyPoolParams, type PoolParams } from '../cmsis/types-pool.js';
import { nodeEmulation, type NodeEmulation, type ResolvedOptions } from '../options.js';
import { PROVIDER } from '../provider.js';
import { poolingSupported, preparePooling } from './pooling-common.js';
import { opData } from '@micrort/kernel-support';

const OP = 'AVERAGE_POOL_2D';

interface AvgPoolData {
  p: PoolParams;
  scratchIndex: number;
  emu: NodeEmulation;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = opData<AvgPoolData>(OP, node);
  const src = context.getEvalTensor(node.inputs[0]!).data as Int8Array;
  const dst = context.getEvalTensor(node.outputs[0]!).data as Int8Array;
  const buffer = context.getScratchBuffer(data.scratchIndex).i32;
  const m = data.emu.machine;
  if (m === null) {
    avgpoolS8Fast(data.p, src, dst, buffer);
    return;
  }
  data.emu.record!.invocations++;
  avgpoolS8Emu(m, data.p, src, dst, buffer);
}

/** Creates the AVERAGE_POOL_2D registration for the given options. */
export function createAveragePool2D(o: ResolvedOptions): Registration<AvgPoolData> {
  return {
    builtinCode: BuiltinOperator.AVERAGE_POOL_2D,
    version: 3,
    provider: PROVIDER,
    name: 'AVERAGE_POOL_2D/cmsis-nn-s8',
    supports: poolingSupported,
    init: (): AvgPoolData => ({ p: emptyPoolParams(), scratchIndex: -1, emu: { machine: null, record: null } }),
    prepare: (context, node) => {
      const data = opData<AvgPoolData>(OP, node);
      preparePooling(OP, context, node, data.p);
      data.scratchIndex = context.requestScratchBufferInArena(avgpoolS8BufferSize(data.p.ch));
      data.emu = nodeEmulation(o, node, OP, 'arm_avgpool_s8');
    },
    invoke,
  };
}
