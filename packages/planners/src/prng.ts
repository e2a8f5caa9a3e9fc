/**
 * A small seeded PRNG (mulberry32) so that randomized planners are reproducible: the same seed gives the
 * same sequence on every platform.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed | 0;
  }

  /** Next value, uniform in [0, 2^32). */
  nextUint32(): number {
    this.state = (this.state + 0x6d2b79f5) | 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }

  /** Next value, uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / 4294967296;
  }

  /** Uniform integer in [0, n) (n >= 1). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}
