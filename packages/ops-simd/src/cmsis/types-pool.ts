/** cmsis_nn_pool_params + dims, flattened (filled in prepare). */
export interface PoolParams {
  batches: number;
  inH: number;
  inW: number;
  ch: number;
  outH: number;
  outW: number;
  kH: number;
  kW: number;
  strideH: number;
  strideW: number;
  padH: number;
  padW: number;
  actMin: number;
  actMax: number;
}

/** An all-zero PoolParams. */
export function emptyPoolParams(): PoolParams {
  return {
    batches: 0,
    inH: 0,
    inW: 0,
    ch: 0,
    outH: 0,
    outW: 0,
    kH: 0,
    kW: 0,
    strideH: 1,
    strideW: 1,
    padH: 0,
    padW: 0,
    actMin: -128,
    actMax: 127,
  };
}
