/**
 * Random chains of spatial operators (CONV_2D, DEPTHWISE_CONV_2D, MAX_POOL_2D, AVERAGE_POOL_2D, PAD,
 * residual ADD) on odd shapes — strides 1 and 2, dilations, SAME and VALID, tile sizes that do not
 * divide the image — for testing schedules against the normal schedule with real kernels. int8 models
 * are quantized per channel as TFLite converts them (bias scale = input scale × filter scale).
 *
 *   const m = randomSpatialModel(seed, 'int8');
 *   m.bytes          // the .tflite
 *   m.cuts           // operator indices after which only the chain's current tensor is live: a patch
 *                    // stage may end there
 */
import { ActivationFunctionType, BuiltinOperator, ModelBuilder, Padding, TensorType } from '@micrort/core';

/** A seeded PRNG (mulberry32). */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed | 0;
  }
  next(): number {
    this.s = (this.s + 0x6d2b79f5) | 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)]!;
  }
}

export interface SpatialModel {
  bytes: Uint8Array;
  /** One line per operator, e.g. `CONV_2D k3 s2 d1 SAME 9x11x3→5x6x4`. */
  layers: string[];
  /** Operator indices after which only the chain's current tensor is live (a stage may end there). */
  cuts: number[];
  inputShape: number[];
  type: 'int8' | 'float32';
}

interface Cur {
  t: number;
  h: number;
  w: number;
  c: number;
  scale: number;
  zp: number;
}

function outSize(padding: Padding, size: number, k: number, s: number, d: number): number {
  const eff = (k - 1) * d + 1;
  return padding === Padding.SAME ? Math.ceil(size / s) : Math.floor((size - eff) / s) + 1;
}

/** A random chain of 2..`maxLayers` spatial operators on a random input of type `type`. */
export function randomSpatialModel(seed: number, type: 'int8' | 'float32', maxLayers = 7): SpatialModel {
  const r = new Rng(seed);
  const q = type === 'int8';
  const T = q ? TensorType.INT8 : TensorType.FLOAT32;
  const b = new ModelBuilder({ description: `random spatial chain ${seed}` });
  const n = r.int(1, 2) === 2 && r.next() < 0.2 ? 2 : 1;
  const h0 = r.int(6, 23);
  const w0 = r.int(6, 23);
  const c0 = r.int(1, 5);
  const layers: string[] = [];
  const cuts: number[] = [];
  let ops = 0;
  const act = () => (q ? { scale: 0.02 + r.next() * 0.1, zeroPoint: r.int(-20, 20) } : undefined);
  const inQ = act();
  const input = b.addTensor({ name: 'input', type: T, shape: [n, h0, w0, c0], ...(inQ ? { quantization: inQ } : {}) });
  let cur: Cur = { t: input, h: h0, w: w0, c: c0, scale: inQ?.scale ?? 1, zp: inQ?.zeroPoint ?? 0 };
  const activation = () => r.pick([ActivationFunctionType.NONE, ActivationFunctionType.RELU, ActivationFunctionType.RELU6]);
  const tensor = (name: string, h: number, w: number, c: number, quant?: { scale: number; zeroPoint: number }) =>
    b.addTensor({ name, type: T, shape: [n, h, w, c], ...(quant ? { quantization: quant } : {}) });

  /** Filter, bias (per-channel int8 or float) of a convolution with `cout` output channels. */
  const weights = (shape: number[], cout: number, qdim: number, inScale: number) => {
    const count = shape.reduce((a, x) => a * x, 1);
    if (!q) {
      const f = b.addTensor({ name: `w${ops}`, type: T, shape, data: Float32Array.from({ length: count }, () => r.next() * 2 - 1) });
      const bias = b.addTensor({
        name: `b${ops}`,
        type: T,
        shape: [cout],
        data: Float32Array.from({ length: cout }, () => r.next() - 0.5),
      });
      return [f, bias];
    }
    const scales = Array.from({ length: cout }, () => 0.004 + r.next() * 0.02);
    const f = b.addTensor({
      name: `w${ops}`,
      type: TensorType.INT8,
      shape,
      data: Int8Array.from({ length: count }, () => r.int(-127, 127)),
      quantization: { scale: scales, zeroPoint: scales.map(() => 0), quantizedDimension: qdim },
    });
    const bias = b.addTensor({
      name: `b${ops}`,
      type: TensorType.INT32,
      shape: [cout],
      data: Int32Array.from({ length: cout }, () => r.int(-400, 400)),
      quantization: { scale: scales.map((s) => s * inScale), zeroPoint: scales.map(() => 0), quantizedDimension: 0 },
    });
    return [f, bias];
  };

  const count = r.int(2, maxLayers);
  for (let l = 0; l < count && cur.h >= 2 && cur.w >= 2; l++) {
    const kind = r.pick(['conv', 'conv', 'dw', 'dw', 'maxpool', 'avgpool', 'pad', 'residual'] as const);
    if (kind === 'conv' || kind === 'dw') {
      const k = r.pick([1, 2, 3, 3, 5]);
      const stride = r.int(1, 2);
      const dil = k > 1 && r.next() < 0.3 ? 2 : 1;
      let padding = r.next() < 0.6 ? Padding.SAME : Padding.VALID;
      if (outSize(padding, cur.h, k, stride, dil) < 1 || outSize(padding, cur.w, k, stride, dil) < 1) padding = Padding.SAME;
      const oh = outSize(padding, cur.h, k, stride, dil);
      const ow = outSize(padding, cur.w, k, stride, dil);
      const mult = kind === 'dw' ? r.pick([1, 1, 2]) : 1;
      const cout = kind === 'conv' ? r.int(1, 8) : cur.c * mult;
      const outQ = act();
      const [f, bias] = kind === 'conv' ? weights([cout, k, k, cur.c], cout, 0, cur.scale) : weights([1, k, k, cout], cout, 3, cur.scale);
      const out = tensor(`t${ops}`, oh, ow, cout, outQ);
      const fused = activation();
      if (kind === 'conv')
        b.addOperator({
          op: BuiltinOperator.CONV_2D,
          version: q ? 3 : 1,
          inputs: [cur.t, f!, bias!],
          outputs: [out],
          options: {
            padding,
            strideH: stride,
            strideW: stride,
            dilationHFactor: dil,
            dilationWFactor: dil,
            fusedActivationFunction: fused,
          },
        });
      else
        b.addOperator({
          op: BuiltinOperator.DEPTHWISE_CONV_2D,
          version: q ? 3 : 1,
          inputs: [cur.t, f!, bias!],
          outputs: [out],
          options: {
            padding,
            strideH: stride,
            strideW: stride,
            dilationHFactor: dil,
            dilationWFactor: dil,
            depthMultiplier: mult,
            fusedActivationFunction: fused,
          },
        });
      layers.push(
        `${kind === 'conv' ? 'CONV_2D' : `DEPTHWISE_CONV_2D m${mult}`} k${k} s${stride} d${dil} ${Padding[padding]} ${cur.h}x${cur.w}x${cur.c}→${oh}x${ow}x${cout}`,
      );
      cur = { t: out, h: oh, w: ow, c: cout, scale: outQ?.scale ?? 1, zp: outQ?.zeroPoint ?? 0 };
    } else if (kind === 'maxpool' || kind === 'avgpool') {
      const k = r.int(2, 3);
      const stride = r.int(1, 2);
      // AVERAGE_POOL_2D with padding counts in-image taps only: the schedule refuses it, so keep it VALID.
      let padding = kind === 'maxpool' && r.next() < 0.6 ? Padding.SAME : Padding.VALID;
      if (outSize(padding, cur.h, k, stride, 1) < 1 || outSize(padding, cur.w, k, stride, 1) < 1) {
        if (kind === 'avgpool') continue;
        padding = Padding.SAME;
      }
      const oh = outSize(padding, cur.h, k, stride, 1);
      const ow = outSize(padding, cur.w, k, stride, 1);
      const out = tensor(`t${ops}`, oh, ow, cur.c, q ? { scale: cur.scale, zeroPoint: cur.zp } : undefined);
      b.addOperator({
        op: kind === 'maxpool' ? BuiltinOperator.MAX_POOL_2D : BuiltinOperator.AVERAGE_POOL_2D,
        version: q ? 2 : 1,
        inputs: [cur.t],
        outputs: [out],
        options: { padding, strideH: stride, strideW: stride, filterHeight: k, filterWidth: k, fusedActivationFunction: activation() },
      });
      layers.push(
        `${kind === 'maxpool' ? 'MAX_POOL_2D' : 'AVERAGE_POOL_2D'} k${k} s${stride} ${Padding[padding]} ${cur.h}x${cur.w}→${oh}x${ow}`,
      );
      cur = { ...cur, t: out, h: oh, w: ow };
    } else if (kind === 'pad') {
      const p = [0, 0, r.int(0, 2), r.int(0, 2), r.int(0, 2), r.int(0, 2), 0, 0];
      const paddings = b.addTensor({ name: `p${ops}`, type: TensorType.INT32, shape: [4, 2], data: Int32Array.from(p) });
      const oh = cur.h + p[2]! + p[3]!;
      const ow = cur.w + p[4]! + p[5]!;
      const out = tensor(`t${ops}`, oh, ow, cur.c, q ? { scale: cur.scale, zeroPoint: cur.zp } : undefined);
      b.addOperator({ op: BuiltinOperator.PAD, version: q ? 2 : 1, inputs: [cur.t, paddings], outputs: [out] });
      layers.push(`PAD ${p.slice(2, 6).join(',')} ${cur.h}x${cur.w}→${oh}x${ow}`);
      cur = { ...cur, t: out, h: oh, w: ow };
    } else {
      // x + DEPTHWISE_CONV_2D 3x3 SAME (x): the ADD reads less of x than the convolution does.
      const k = 3;
      const midQ = act();
      const [f, bias] = weights([1, k, k, cur.c], cur.c, 3, cur.scale);
      const mid = tensor(`t${ops}`, cur.h, cur.w, cur.c, midQ);
      b.addOperator({
        op: BuiltinOperator.DEPTHWISE_CONV_2D,
        version: q ? 3 : 1,
        inputs: [cur.t, f!, bias!],
        outputs: [mid],
        options: {
          padding: Padding.SAME,
          strideH: 1,
          strideW: 1,
          dilationHFactor: 1,
          dilationWFactor: 1,
          depthMultiplier: 1,
          fusedActivationFunction: activation(),
        },
      });
      ops++;
      const outQ = act();
      const out = tensor(`t${ops}`, cur.h, cur.w, cur.c, outQ);
      b.addOperator({
        op: BuiltinOperator.ADD,
        version: q ? 2 : 1,
        inputs: [cur.t, mid],
        outputs: [out],
        options: { fusedActivationFunction: ActivationFunctionType.NONE },
      });
      layers.push(`DEPTHWISE_CONV_2D k3 SAME + ADD (residual) ${cur.h}x${cur.w}x${cur.c}`);
      cur = { ...cur, t: out, scale: outQ?.scale ?? 1, zp: outQ?.zeroPoint ?? 0 };
    }
    cuts.push(ops);
    ops++;
  }
  b.setInputs([input]).setOutputs([cur.t]);
  return { bytes: b.build(), layers, cuts, inputShape: [n, h0, w0, c0], type };
}
