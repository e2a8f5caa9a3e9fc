/**
 * TFLM_DECODE (custom op; TFLM kernels/decode.cc): decompresses tensors written by TFLM's model
 * compression tool. Inputs come in pairs — an encoded tensor and an ancillary tensor, both uint8
 * constants — and output i is decoded from pair i on every invoke. The ancillary tensor's Decode Common
 * Metadata (decode-common.ts) names the scheme: LUT (decode-state-lut.ts), Huffman
 * (decode-state-huffman.ts) or prune (decode-state-prune.ts); TFLM's "custom" type 127 has no decoder
 * in TFLM either and is refused, as is any other type.
 *
 * Prepare validates each pair against its output (types, quantization axis, DCM versions, that the
 * constant encoded data and tables cover every element) and builds one decoder per output; invoke only
 * decodes. Arena: TFLM's pointer array and per-output decoder objects (x86-64 sizes) are allocated
 * persistently; a table whose bytes are not aligned to its element size is copied into the arena.
 */
import { BuiltinOperator, KernelError, TensorType, tensorTypeName, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { PROVIDER } from '../provider.js';
import { DCM_BYTES, DcmType, OP, type DecodeState } from './decode-common.js';
import { DecodeStateHuffman } from './decode-state-huffman.js';
import { DecodeStateLut } from './decode-state-lut.js';
import { DecodeStatePrune } from './decode-state-prune.js';
import { opData } from '@micrort/kernel-support';

interface DecodeOpData {
  states: DecodeState[];
}

function supports(context: TfLiteContext, node: Node): true | string {
  for (let i = 0; i < node.inputs.length; i++) {
    const index = node.inputs[i]!;
    if (index < 0) continue;
    const t = context.getTensor(index);
    if (t.type !== TensorType.UINT8) return `${tensorTypeName(t.type)} ${i % 2 === 0 ? 'encoded' : 'ancillary'} input ${i} (handles uint8)`;
  }
  return true;
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = opData<DecodeOpData>(OP, node);
  const numOutputs = node.outputs.length;
  if (numOutputs < 1) throw new KernelError(OP, node.index, 'has no outputs');
  if (node.inputs.length !== 2 * numOutputs)
    throw new KernelError(
      OP,
      node.index,
      `expects 2 inputs (encoded, ancillary) per output: ${node.inputs.length} inputs for ${numOutputs} outputs`,
    );
  context.allocatePersistentBuffer(numOutputs * 8); // TFLM's DecodeState* array
  data.states = [];
  for (let k = 0; k < numOutputs; k++) {
    const [ii, ai, oi] = [node.inputs[2 * k]!, node.inputs[2 * k + 1]!, node.outputs[k]!];
    if (ii < 0 || ai < 0 || oi < 0)
      throw new KernelError(OP, node.index, `pair ${k}: the encoded input, ancillary input and output must all be present`);
    const input = context.getTensor(ii);
    const ancillary = context.getTensor(ai);
    const output = context.getTensor(oi);
    if (!input.isConstant || !ancillary.isConstant)
      throw new KernelError(
        OP,
        node.index,
        `pair ${k}: the encoded tensor ${input.index} and the ancillary tensor ${ancillary.index} must be constants (model data)`,
      );
    for (const [what, t] of [
      ['encoded', input],
      ['ancillary', ancillary],
    ] as const)
      if (t.type !== TensorType.UINT8)
        throw new KernelError(
          OP,
          node.index,
          `pair ${k}: the ${what} tensor ${t.index} has type ${tensorTypeName(t.type)}, expected uint8`,
        );
    const anc = ancillary.bytes;
    if (anc.length < DCM_BYTES)
      throw new KernelError(
        OP,
        node.index,
        `pair ${k}: the ancillary tensor ${ancillary.index} has ${anc.length} bytes, less than the ${DCM_BYTES}-byte decode metadata`,
      );
    if (anc[1] !== 1) throw new KernelError(OP, node.index, `pair ${k}: decode metadata version ${anc[1]} != 1`);
    switch (anc[0]) {
      case DcmType.LUT:
        data.states.push(new DecodeStateLut(context, node, input, ancillary, output));
        break;
      case DcmType.PRUNE:
        data.states.push(new DecodeStatePrune(context, node, input, ancillary, output));
        break;
      case DcmType.HUFFMAN:
        data.states.push(new DecodeStateHuffman(context, node, input, ancillary, output));
        break;
      case DcmType.CUSTOM:
        throw new KernelError(OP, node.index, `pair ${k}: custom decode type (127) is not supported (TFLM has no decoder for it either)`);
      default:
        throw new KernelError(OP, node.index, `pair ${k}: unsupported decode type ${anc[0]} (0 LUT, 1 Huffman, 2 prune)`);
    }
  }
}

function invoke(context: TfLiteContext, node: Node): void {
  const states = opData<DecodeOpData>(OP, node).states;
  for (let k = 0; k < states.length; k++) states[k]!.decode(context.getEvalTensor(node.outputs[k]!));
}

/** TFLM_DECODE kernel (LUT, Huffman and prune decoders). */
export const TFLM_DECODE: Registration<DecodeOpData> = {
  builtinCode: BuiltinOperator.CUSTOM,
  customName: OP,
  version: 1,
  provider: PROVIDER,
  name: OP,
  supports,
  init: () => ({ states: [] }),
  prepare,
  invoke,
};
