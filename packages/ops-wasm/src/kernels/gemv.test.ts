/**
 * The one-pixel GEMM's unpadded layout (weight-pack.ts's packGemv, W.Gemv): channel counts that are not
 * multiples of 4 or 8 and depths that are not multiples of 8 cost their weights and no more, the outputs
 * equal ops-reference's byte for byte, and gathered layers of few channels run pixel by pixel without
 * the tile's sign-extended rows in their scratch.
 */
import { describe, expect, it } from 'vitest';
import { ActivationFunctionType, MicroInterpreter, OpResolver, Padding, type ArenaBacking, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { createPlanner } from '@micrort/planners';
import { WINDOW_PARAMS_BYTES } from './kernel-common.js';
import { GEMV_MAX_CHANNELS, gemvPackedBytes, gemvShape } from './weight-pack.js';
import { buildConv, buildFullyConnected, randomConvCase, runBoth, wasm, type ConvCase } from '../__tests__/single-op.js';
import { PROVIDER } from '../provider.js';

const align16 = (n: number): number => (n + 15) & ~15;

/**
 * The output bytes with ops-wasm in front of ops-reference, the start of the WebAssembly memory (the arena
 * head: the tensors) filled with 0x7b first, so that reads past a tensor (the unpadded layout reads its
 * last slice whole) meet nonzero bytes.
 */
function runFilled(def: ModelDef, input: Int8Array): { got: Int8Array; provider: string } {
  const w = wasm();
  const backing: ArenaBacking = {
    name: w.arenaBacking.name,
    allocate(n: number) {
      const buffer = w.arenaBacking.allocate(n);
      new Uint8Array(buffer, 0, Math.min(buffer.byteLength, 1 << 20)).fill(0x7b); // the head, where the tensors are
      return buffer;
    },
  };
  return runWith(def, input, registerReferenceOps(new OpResolver()).registerAll(w.kernels, { fallback: true }), backing);
}

/** The output bytes of `def` on `input` with `resolver` (and `backing`), and the first node's provider. */
function runWith(def: ModelDef, input: Int8Array, resolver: OpResolver, backing?: ArenaBacking): { got: Int8Array; provider: string } {
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    ...(backing ? { arenaBacking: backing } : {}),
  }).allocateTensors();
  it_.input(0).bytes.set(new Uint8Array(input.buffer, input.byteOffset, input.byteLength));
  it_.invoke();
  return { got: Int8Array.from(it_.output(0).bytes), provider: it_.nodes()[0]!.provider };
}

/** The first node's persistent and scratch bytes with ops-wasm in front of ops-reference. */
function nodeBytes(def: ModelDef): { persistent: number; scratch: number; provider: string } {
  const resolver = registerReferenceOps(new OpResolver()).registerAll(wasm().kernels, { fallback: true });
  const it_ = new MicroInterpreter(def, resolver, {
    planner: createPlanner('greedy'),
    arenaBacking: wasm().arenaBacking,
  }).allocateTensors();
  const n = it_.arenaUsage().perNode[0]!;
  return { persistent: n.persistentBytes, scratch: n.scratchBytes, provider: it_.nodes()[0]!.provider };
}

describe('packGemv', () => {
  it('costs the weights and folded biases, plus one byte per grouped channel of an odd depth, for 1-40 channels over 1-80 values', () => {
    for (let outC = 1; outC <= 40; outC++)
      for (let K = 1; K <= 80; K++) {
        const { narrow } = gemvShape(outC, K);
        const oddPair = K & 1 ? outC - narrow : 0; // the single channels' rows are not paired
        expect(gemvPackedBytes(outC, K), `${outC} x ${K}`).toBe(outC * K + 4 * outC + oddPair);
        expect(gemvPackedBytes(outC, K, 2), `${outC} x ${K} int16`).toBe(2 * (outC * K + oddPair) + 4 * outC);
      }
  });
});

describe('FULLY_CONNECTED with one batch (the GEMV layout)', () => {
  it('equals ops-reference on 1-19 units over depths 1, 3, 5, 7, 8, 9, 15, 17 and 28 (int8 per-tensor and per-channel, uint8), the memory pre-filled', () => {
    let seed = 1;
    for (let units = 1; units <= 19; units++)
      for (const depth of [1, 3, 5, 7, 8, 9, 15, 17, 28])
        for (const kind of ['tensor', 'channel', 'uint8'] as const) {
          const m = buildFullyConnected(seed++, kind === 'uint8', { batches: 1, units, depth, perChannel: kind === 'channel' });
          const got = runFilled(m.def, m.input);
          expect(got.provider, m.desc).toBe(PROVIDER);
          expect(got.got, m.desc).toEqual(runWith(m.def, m.input, registerReferenceOps(new OpResolver())).got);
        }
  });

  it("keeps the weights unpadded and a per-tensor multiplier once: 10 units over 560 values (trained_lstm_int8's classifier)", () => {
    for (const perChannel of [false, true]) {
      const m = buildFullyConnected(3, false, { batches: 1, units: 10, depth: 560, perChannel });
      const r = runBoth(m.def, [m.input]);
      expect(r.got[0]).toEqual(r.ref[0]);
      const got = nodeBytes(m.def);
      expect(got.provider).toBe(PROVIDER);
      // parameter block, multipliers and shifts (one each, or one per unit), the packed weights (5600 + 40)
      const multipliers = perChannel ? 2 * align16(10 * 4) : align16(8);
      expect(got.persistent, JSON.stringify({ perChannel })).toBe(WINDOW_PARAMS_BYTES + multipliers + align16(5640));
      // the scratch: the requantization blocks (one shared, or three), no rows
      expect(got.scratch).toBe(perChannel ? 3 * 64 : 64);
    }
  });
});

/** micro_speech's first layer: 49x40 over one channel, a 10x8 window, stride 2, SAME, eight outputs (a depthwise multiplier of 8). */
const MICRO_SPEECH_DW: ConvCase = {
  depthwise: true,
  batches: 1,
  inH: 49,
  inW: 40,
  inC: 1,
  outC: 8,
  kH: 10,
  kW: 8,
  strideH: 2,
  strideW: 2,
  dilH: 1,
  dilW: 1,
  padding: Padding.SAME,
  perChannel: true,
  bias: true,
  inZp: -128,
  outZp: -128,
  activation: ActivationFunctionType.RELU,
  gain: 1,
  seed: 5,
};

describe('gathered layers of few channels (pixel by pixel, W.Gemv)', () => {
  it("run micro_speech's 10x8 one-channel DEPTHWISE_CONV_2D without sign-extended rows: 256 bytes of scratch, outputs as ops-reference", () => {
    const m = buildConv(MICRO_SPEECH_DW)!;
    const r = runBoth(m.def, [m.input]);
    expect(r.served).toBe(1);
    expect(r.got[0]).toEqual(r.ref[0]);
    // two requantization blocks and the zero row (160), one gathered row of 80 values with slack (96);
    // the 4-pixel tile would add 1312 bytes of sign-extended rows
    expect(nodeBytes(m.def).scratch).toBe(256);
  });

  it('equal ops-reference on random CONV_2D and one-channel DEPTHWISE_CONV_2D layers of 1-8 channels (depths not multiples of 8; a third with window rows of 8 values)', () => {
    let ran = 0;
    for (let seed = 1; ran < 160; seed++) {
      const depthwise = seed % 2 === 0;
      const c = randomConvCase(seed, depthwise);
      const outC = 1 + (seed % GEMV_MAX_CHANNELS);
      // a third with window rows of whole 8-value slices (read in place inside the image)
      const rows = seed % 3 === 0;
      const inC = depthwise ? 1 : rows ? 4 : [1, 2, 3, 5, 7, 9, 12][seed % 7]!;
      const kW = rows ? 8 / inC : c.kW;
      const k: ConvCase = { ...c, inC, outC, kH: Math.max(c.kH, 2), kW, inW: rows ? c.inW + kW : c.inW };
      const m = buildConv(k);
      if (!m) continue;
      const r = runBoth(m.def, [m.input]);
      expect(r.served, JSON.stringify(k)).toBe(1);
      expect(r.got[0], JSON.stringify(k)).toEqual(r.ref[0]);
      ran++;
    }
  });
});
