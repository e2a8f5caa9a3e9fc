/**
 * MIRROR_PAD (TFLM kernels/mirror_pad.cc) in WebAssembly, REFLECT and SYMMETRIC, up to 6 dimensions, any
 * type of 1-, 2-, 4- or 8-byte elements, byte-exact: a short list of strided box copies fixed at prepare
 * and run by mirror_pad_bytes (assembly/layout/mirror-pad.ts). The input goes into the output's interior
 * in one copy; then, axis by axis from the innermost, each border slab is a copy of a reversed view
 * (negative stride) of the output already written along that axis — its interior along the axes not yet
 * done, all of it along the axes done — and TFLM's clamp of a right border longer than the mirror (those
 * indices repeat input index 0) one more copy with a stride of 0. At most 1 + 3 × rank copies; axes
 * without padding take none and merge into their neighbours. The checks, the output shape and the index
 * arithmetic are kernel-support's prepareMirrorPad, as in ops-reference. Declines paddings that are not
 * constant.
 */
import { BuiltinOperator, elementSize, tensorTypeName, type Node, type Registration, type TfLiteContext } from '@micrort/core';
import { MIRROR_PAD_TYPES, declineArity, declineNotConstant, declineType, prepareMirrorPad } from '@micrort/kernel-support';
import { MC, MC_BYTES, MP, MP_BYTES } from '../generated/abi.js';
import { PROVIDER } from '../provider.js';
import { kernelsFor } from '../wasm-arena.js';
import type { KernelExports } from '../wasm-module.js';
import { constantInputCopies, inputOffset } from './kernel-common.js';

const OP = 'MIRROR_PAD';
/** The axes of one copy (MC.D). */
const COPY_DIMS = 6;
const SIZES = new Set([1, 2, 4, 8]);

interface MirrorPadData {
  k: KernelExports | null;
  params: number;
  /** Arena copy of a constant input (-1: read the eval tensor). */
  fixed: number;
}

/** One strided box copy: dims, read and write byte strides and starts. */
export interface BoxCopy {
  /** Read from the output (a border slab) rather than the input. */
  fromOutput: boolean;
  src: number;
  dst: number;
  dims: number[];
  srcStrides: number[];
  dstStrides: number[];
}

function supports(context: TfLiteContext, node: Node): true | string {
  const arity = declineArity(node, 2, 1);
  if (arity) return arity;
  const input = context.getTensor(node.inputs[0]!);
  const why = declineType('input', input, MIRROR_PAD_TYPES);
  if (why) return why;
  const size = elementSize(input.type);
  if (size === undefined || !SIZES.has(size)) return `${tensorTypeName(input.type)} input (handles elements of 1, 2, 4 or 8 bytes)`;
  return declineNotConstant(context, node, 1, 'paddings', 'the copies are fixed at prepare') ?? true;
}

/**
 * The copies of a MIRROR_PAD of an input of dims `inDims` by `pads` ([left, right] per dimension, valid
 * for kernel-support's prepareMirrorPad) in `offset` mode (1 REFLECT, 0 SYMMETRIC), elements of `es`
 * bytes, in the order they must run; empty boxes left out. Not merged (see {@link mergeCopyAxes}).
 */
export function mirrorPadCopies(inDims: ArrayLike<number>, pads: ArrayLike<number>, offset: number, es: number): BoxCopy[] {
  const rank = inDims.length;
  const n = Array.from(inDims);
  const left = n.map((_, a) => pads[2 * a]!);
  const right = n.map((_, a) => pads[2 * a + 1]!);
  const outDims = n.map((d, a) => d + left[a]! + right[a]!);
  const inStrides = new Array<number>(rank);
  const outStrides = new Array<number>(rank);
  for (let a = rank - 1, si = es, so = es; a >= 0; a--) {
    inStrides[a] = si;
    outStrides[a] = so;
    si *= n[a]!;
    so *= outDims[a]!;
  }
  const interior = left.reduce((s, l, a) => s + l * outStrides[a]!, 0);
  const copies: BoxCopy[] = [
    { fromOutput: false, src: 0, dst: interior, dims: n.slice(), srcStrides: inStrides, dstStrides: outStrides.slice() },
  ];
  for (let a = rank - 1; a >= 0; a--) {
    // the box: interior along the axes before a, all of every axis after it
    const dims = n.map((d, b) => (b < a ? d : outDims[b]!));
    let base = 0;
    for (let b = 0; b < a; b++) base += left[b]! * outStrides[b]!;
    const t = outStrides[a]!;
    const slab = (count: number, dstAt: number, srcAt: number, step: number) => {
      if (count <= 0) return;
      const d = dims.slice();
      d[a] = count;
      const s = outStrides.slice();
      s[a] = step * t;
      copies.push({
        fromOutput: true,
        src: base + srcAt * t,
        dst: base + dstAt * t,
        dims: d,
        srcStrides: s,
        dstStrides: outStrides.slice(),
      });
    };
    const l = left[a]!;
    // left border: output index i reads input index l + offset - 1 - i (in the output: l + that)
    slab(l, 0, 2 * l + offset - 1, -1);
    // right border: p = i - l - n reads input index original - p while p <= original, then index 0
    const original = n[a]! - 1 - offset;
    const mirrored = Math.min(right[a]!, Math.max(original + 1, 0));
    slab(mirrored, l + n[a]!, l + original, -1);
    slab(right[a]! - mirrored, l + n[a]! + mirrored, l, 0);
  }
  return copies.filter((c) => c.dims.every((d) => d > 0));
}

/**
 * `c`'s axes as mirror_pad_bytes walks them: size-1 axes dropped, an axis merged into the one before it
 * when both the read and the write step through it as one, front-padded to {@link COPY_DIMS} with (1, 0, 0).
 */
export function mergeCopyAxes(c: BoxCopy): BoxCopy {
  const d: number[] = [];
  const s: number[] = [];
  const t: number[] = [];
  for (let k = 0; k < c.dims.length; k++) {
    const n = c.dims[k]!;
    if (n === 1) continue;
    const last = d.length - 1;
    if (last >= 0 && s[last] === c.srcStrides[k]! * n && t[last] === c.dstStrides[k]! * n) {
      d[last]! *= n;
      s[last] = c.srcStrides[k]!;
      t[last] = c.dstStrides[k]!;
    } else {
      d.push(n);
      s.push(c.srcStrides[k]!);
      t.push(c.dstStrides[k]!);
    }
  }
  while (d.length < COPY_DIMS) {
    d.unshift(1);
    s.unshift(0);
    t.unshift(0);
  }
  return { ...c, dims: d, srcStrides: s, dstStrides: t };
}

function prepare(context: TfLiteContext, node: Node): void {
  const data = node.userData as MirrorPadData;
  const g = prepareMirrorPad(OP, context, node);
  const es = elementSize(g.input.type)!;
  const copies = mirrorPadCopies(g.input.dims, g.pads, g.offset, es).map(mergeCopyAxes);
  const region = context.allocatePersistentBuffer(MP_BYTES + copies.length * MC_BYTES);
  data.k = kernelsFor(OP, node, region);
  const p = region.i32;
  p[MP.Count] = copies.length;
  p[MP.Es] = es;
  copies.forEach((c, i) => {
    const at = MP.Copy + (i * MC_BYTES) / 4;
    p[at + MC.FromOut] = c.fromOutput ? 1 : 0;
    p[at + MC.Src] = c.src;
    p[at + MC.Dst] = c.dst;
    for (let k = 0; k < COPY_DIMS; k++) {
      p[at + MC.D + k] = c.dims[k]!;
      p[at + MC.S + k] = c.srcStrides[k]!;
      p[at + MC.T + k] = c.dstStrides[k]!;
    }
  });
  data.params = region.offset;
  data.fixed = constantInputCopies(context, node, [0])[0]!;
}

function invoke(context: TfLiteContext, node: Node): void {
  const data = node.userData as MirrorPadData;
  data.k!.mirror_pad_bytes(data.params, inputOffset(context, node, 0, data.fixed), context.getEvalTensor(node.outputs[0]!).data.byteOffset);
}

/** The MIRROR_PAD registration. */
export function createMirrorPad(): Registration<MirrorPadData> {
  return {
    builtinCode: BuiltinOperator.MIRROR_PAD,
    version: 3,
    provider: PROVIDER,
    name: 'MIRROR_PAD/wasm-bytes',
    supports,
    init: (): MirrorPadData => ({ k: null, params: 0, fixed: -1 }),
    prepare,
    invoke,
  };
}
