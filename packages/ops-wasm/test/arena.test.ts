/**
 * Lean weights: with ops-wasm the int8 (and float32) weights are copied once into WebAssembly memory,
 * packed but not widened, so the arena grows by about the model's constant bytes and no more. For every
 * conformance model: ops-wasm's arena <= ops-reference's arena + 1.1 x the model's constant bytes (the
 * table is printed), with no exceptions: the tiny ones hold too because the one-pixel GEMM's weights are
 * not padded (FULLY_CONNECTED with one batch, the LSTM gates), a per-tensor layer keeps one multiplier,
 * SOFTMAX tabulates only the differences down to diff_min, and a gathered layer of few channels (as
 * micro_speech's 10x8 one-channel DEPTHWISE_CONV_2D at the arena peak) needs no sign-extended rows.
 */
import { describe, expect, it } from 'vitest';
import { OpResolver, type ModelDef } from '@micrort/core';
import { registerReferenceOps } from '@micrort/ops-reference';
import { registerSignalOps } from '@micrort/ops-signal';
import { SKIP_REASON, hasConformance, listModels, loadConformanceModel, makeInterpreter } from '@micrort/test-support/conformance';
import { loadWasmKernelsSync } from '../src/index.js';

const wasm = loadWasmKernelsSync({ threads: 1 }); // the bound is for one thread (more threads add their scratch rows)
const reference = () => registerSignalOps(registerReferenceOps(new OpResolver()));

/** Bytes of the constant buffers the model's tensors use. */
function constantBytes(model: ModelDef): number {
  const used = new Set<number>();
  for (const sg of model.subgraphs) for (const t of sg.tensors) if (t.buffer > 0) used.add(t.buffer);
  let n = 0;
  for (const b of used) n += model.buffers[b]?.data?.byteLength ?? 0;
  return n;
}

describe.skipIf(!hasConformance)('arena with ops-wasm (lean weights)', () => {
  it('ops-wasm arena <= ops-reference arena + 1.1 x constant bytes on every conformance model', () => {
    const rows: string[] = [];
    const failures: string[] = [];
    for (const name of listModels()) {
      const constants = constantBytes(loadConformanceModel(name));
      const ref = makeInterpreter(name, { resolver: reference }).arenaUsage().usedBytes;
      const got = makeInterpreter(name, {
        resolver: () => reference().registerAll(wasm.kernels, { fallback: true }),
        arenaBacking: wasm.arenaBacking,
      }).arenaUsage().usedBytes;
      const bound = Math.floor(ref + 1.1 * constants);
      rows.push(
        `${name.padEnd(36)} ${String(constants).padStart(9)} ${String(ref).padStart(9)} ${String(got).padStart(9)} ${String(bound).padStart(9)}`,
      );
      if (got > bound) failures.push(`${name}: ${got} > ${bound}`);
    }
    console.log(`model                                constants ops-ref   ops-wasm  bound\n${rows.join('\n')}`);
    expect(failures).toEqual([]);
  });
  if (!hasConformance) it.skip(SKIP_REASON, () => {});
});

describe('small layers', () => {
  it('CONV_2D and FULLY_CONNECTED below minMacs are declined with the reason; minMacs 0 takes them', () => {
    const all = loadWasmKernelsSync({ minMacs: 0, threads: 1 }).kernels.find((k) => k.name === 'FULLY_CONNECTED/wasm-qs8-gemm')!;
    if (!hasConformance) return;
    const it_ = makeInterpreter('hello_world_int8', {
      resolver: () => reference().registerAll(wasm.kernels, { fallback: true }),
      arenaBacking: wasm.arenaBacking,
    });
    const node = it_.nodes().find((n) => n.op === 'FULLY_CONNECTED')!;
    expect(node.provider).toBe('@micrort/ops-reference');
    expect(JSON.stringify(it_.check())).toMatch(/16 multiply-accumulates per invoke, fewer than minMacs 4096/);
    const served = makeInterpreter('hello_world_int8', {
      resolver: () => reference().registerAll([all], { fallback: true }),
      arenaBacking: wasm.arenaBacking,
    });
    expect(served.nodes().filter((n) => n.op === 'FULLY_CONNECTED' && n.provider === '@micrort/ops-wasm').length).toBe(3);
  });
});
