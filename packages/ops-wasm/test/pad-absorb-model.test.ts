/**
 * The conformance int8 MobileNetV2 (18 PADs before its stem CONV_2D and stride-2 DEPTHWISE_CONV_2Ds)
 * with `--ops wasm`'s composition: every PAD is absorbed by the convolution it feeds, the outputs still
 * equal TFLM's bytes, and the arena head is smaller than the same kernels' when they do not absorb.
 * Skipped when ../shared/conformance is absent.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { BuiltinOperator, OpResolver, type Registration, type TfLiteContext } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { SKIP_REASON, hasConformance, listModels, makeInterpreter, runCase } from '@micrort/test-support/conformance';
import { loadWasmKernels } from '../src/index.js';

const MODEL = 'mobilenet_v2_quantized_1x3x224x224';
const present = hasConformance && listModels().includes(MODEL);
const wasm = present ? await loadWasmKernels({ threads: 1 }) : null;
afterAll(() => wasm?.dispose());

/** The same kernel, its prepare given a context whose absorbPad always declines. */
function noAbsorb(reg: Registration): Registration {
  if (reg.builtinCode !== BuiltinOperator.CONV_2D && reg.builtinCode !== BuiltinOperator.DEPTHWISE_CONV_2D) return reg;
  return {
    ...reg,
    prepare: (ctx, node) =>
      reg.prepare!(new Proxy(ctx, { get: (t, p) => (p === 'absorbPad' ? () => null : Reflect.get(t, p, t)) }) as TfLiteContext, node),
  };
}

const resolver = (absorb: boolean) => () =>
  registerSignalOps(registerReferenceOps(new OpResolver())).registerAll(absorb ? wasm!.kernels : wasm!.kernels.map(noAbsorb), {
    fallback: true,
  });

describe.skipIf(!present)(`PAD absorption on ${MODEL} (ops-wasm)`, () => {
  it("absorbs its 18 PADs, equals TFLM's bytes, and plans a smaller arena head than without absorbing", () => {
    const opts = (absorb: boolean) => ({ resolver: resolver(absorb), arenaBacking: wasm!.arenaBacking });
    const interp = makeInterpreter(MODEL, opts(true));
    const pads = interp.nodes().filter((n) => n.op === 'PAD');
    expect(pads.length).toBe(18);
    expect(pads.filter((n) => n.absorbedInto !== undefined).length).toBe(18);
    interp.dispose();
    const absorbed = runCase(MODEL, 0, opts(true));
    const copied = runCase(MODEL, 0, opts(false));
    expect(absorbed.pass, JSON.stringify(absorbed.outputs)).toBe(true);
    expect(copied.pass).toBe(true);
    console.log(
      `${MODEL} (ops-wasm): arena head ${copied.arena.headBytes} B without absorbing, ${absorbed.arena.headBytes} B absorbed; ` +
        `arena ${copied.arena.arenaBytes} B → ${absorbed.arena.arenaBytes} B`,
    );
    expect(absorbed.arena.headBytes).toBeLessThan(copied.arena.headBytes);
  });
});

if (!present) describe('PAD absorption on the conformance MobileNetV2', () => it.skip(SKIP_REASON, () => {}));
