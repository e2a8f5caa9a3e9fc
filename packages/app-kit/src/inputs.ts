import { TensorType, type Tensor } from '@micrort/core';

/**
 * Deterministic random inputs, generated exactly as the conformance suite's (splitmix64 seeded with the
 * case seed; one 64-bit draw per element, input 0 first): int8 r>>56, uint8 r>>56, int16 r>>48,
 * float32 ((r>>40)/2^24)*2-1, int32 (r%17)-8. With seed 1 this reproduces case0's inputs.
 */
export class SplitMix64 {
  private s: bigint;
  constructor(seed: number | bigint) {
    this.s = BigInt.asUintN(64, BigInt(seed));
  }
  next(): bigint {
    this.s = BigInt.asUintN(64, this.s + 0x9e3779b97f4a7c15n);
    let z = this.s;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }
}

/** Fills `tensor` from the stream. */
export function fillRandom(tensor: Tensor, rng: SplitMix64): void {
  const d = tensor.data;
  const n = tensor.elementCount;
  for (let i = 0; i < n; i++) {
    const r = rng.next();
    switch (tensor.type) {
      case TensorType.INT8:
        (d as Int8Array)[i] = Number(BigInt.asIntN(8, r >> 56n));
        break;
      case TensorType.UINT8:
      case TensorType.BOOL:
        (d as Uint8Array)[i] = Number(r >> 56n);
        break;
      case TensorType.INT16:
        (d as Int16Array)[i] = Number(BigInt.asIntN(16, r >> 48n));
        break;
      case TensorType.FLOAT32:
        (d as Float32Array)[i] = (Number(r >> 40n) / 16777216) * 2 - 1;
        break;
      case TensorType.INT32:
        (d as Int32Array)[i] = Number(r % 17n) - 8;
        break;
      case TensorType.INT64:
        (d as BigInt64Array)[i] = (r % 17n) - 8n;
        break;
      default:
        tensor.bytes[i % tensor.bytes.length] = Number(r & 0xffn);
    }
  }
}
