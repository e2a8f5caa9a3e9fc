/**
 * Small row-major float32 matrix products as MediaPipe's `Mat3`/`Mat4` compute them: for every
 * (row, column), `float sum = 0; sum += a(row, k) * b(k, column)` for k ascending, every product and
 * every sum rounded to float32. Nothing here allocates.
 */

const f = Math.fround;

/** `out = a * b` for n×n matrices; `out` must not be `a` or `b`. */
export function matMul(n: number, a: Float32Array, b: Float32Array, out: Float32Array): void {
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      let sum = 0;
      for (let k = 0; k < n; k++) sum = f(sum + f(a[r * n + k]! * b[k * n + c]!));
      out[r * n + c] = sum;
    }
  }
}

/** Writes the 3×3 matrix given row by row into `m` (values rounded to float32 by the store). */
export function setMat3(
  m: Float32Array,
  x00: number,
  x01: number,
  x02: number,
  x10: number,
  x11: number,
  x12: number,
  x20: number,
  x21: number,
  x22: number,
): void {
  m[0] = x00;
  m[1] = x01;
  m[2] = x02;
  m[3] = x10;
  m[4] = x11;
  m[5] = x12;
  m[6] = x20;
  m[7] = x21;
  m[8] = x22;
}

/** Sets the 4×4 `m` to the identity. */
export function setIdentity4(m: Float32Array): void {
  m.fill(0);
  m[0] = 1;
  m[5] = 1;
  m[10] = 1;
  m[15] = 1;
}

/** Dot product of two float4 as MediaPipe's `DotProduct`: `l.x * r.x + l.y * r.y + l.z * r.z + l.w * r.w` in float32, left to right. */
export function dot4(lx: number, ly: number, lz: number, lw: number, rx: number, ry: number, rz: number, rw: number): number {
  return f(f(f(f(lx * rx) + f(ly * ry)) + f(lz * rz)) + f(lw * rw));
}
