/**
 * The two C++ standard-library algorithms whose tie order Coral's pose decoder depends on, as GNU
 * libstdc++ implements them (the library Coral's Linux builds link):
 *
 * - `std::priority_queue<KeypointWithScore>` ordered by score (`std::push_heap` / `std::pop_heap` on a
 *   vector): which of two equally scored keypoints is popped first decides which root is decoded first
 *   and which child position wins — with uint8 heatmaps equal scores are common;
 * - `std::sort` of an index vector by decreasing score (`DecreasingArgSort`): introsort — median-of-three
 *   partitioning while more than 16 elements remain (heapsort past a depth of 2·⌊log2 n⌋), then insertion
 *   sort — which is not stable, so equally scored poses come out in libstdc++'s order.
 *
 * Both work in place on typed arrays and allocate nothing. Other standard libraries (libc++, MSVC) order
 * ties differently; results that have no ties are the same under any of them.
 */

/** Floats per queue entry: y, x, keypoint id, score. */
export const QUEUE_ENTRY_FLOATS = 4;

/**
 * A max-priority queue of keypoints by score (`std::priority_queue<KeypointWithScore,
 * std::vector<KeypointWithScore>, KeypointWithScoreComparator>` with `lhs.score < rhs.score`), on
 * libstdc++'s heap algorithms. Entries are 4 floats (y, x, id, score) in `entries`, which the owner
 * points at memory with room for its largest size (a scratch buffer bound in invoke); `size` entries are
 * in use and the top one is `entries[0..3]`. To push, write the entry at `entries[tail..tail + 3]`, then
 * call `push()` (no float crosses a call, so nothing is boxed).
 */
export class KeypointPriorityQueue {
  size = 0;
  /** The entry `push` / `pop` moves into place (libstdc++'s `__value`). */
  private readonly value = new Float32Array(QUEUE_ENTRY_FLOATS);

  constructor(public entries: Float32Array) {}

  /** Where the next entry is written before `push()`. */
  get tail(): number {
    return this.size * QUEUE_ENTRY_FLOATS;
  }

  /** Empties the queue. */
  clear(): void {
    this.size = 0;
  }

  /** `push` / `emplace` of the entry written at `tail`: libstdc++'s `__push_heap` from that last position. */
  push(): void {
    const hole = this.size++;
    this.take(hole);
    this.siftUp(hole, 0);
  }

  /** Writes (y, x, id, score) at `tail` and pushes it (for callers outside invoke: it takes floats). */
  pushEntry(y: number, x: number, id: number, score: number): void {
    const o = this.tail;
    this.entries[o] = y;
    this.entries[o + 1] = x;
    this.entries[o + 2] = id;
    this.entries[o + 3] = score;
    this.push();
  }

  /**
   * `pop`: libstdc++'s `pop_heap` — the last entry is taken out, the top moves to the last position,
   * `__adjust_heap` walks the hole from the root down along the larger children and pushes the taken
   * entry back up from where the hole ended — then the last position is dropped.
   */
  pop(): void {
    const n = this.size;
    if (n > 1) {
      this.take(n - 1);
      this.move(n - 1, 0);
      this.adjust(0, n - 1);
    }
    this.size = n > 0 ? n - 1 : 0;
  }

  /** `__adjust_heap(first, hole, len, value)` with comparator `a.score < b.score`. */
  private adjust(hole: number, len: number): void {
    const e = this.entries;
    const top = hole;
    let second = hole;
    const inner = ((len - 1) / 2) | 0;
    while (second < inner) {
      second = 2 * (second + 1);
      if (e[second * QUEUE_ENTRY_FLOATS + 3]! < e[(second - 1) * QUEUE_ENTRY_FLOATS + 3]!) second--;
      this.move(hole, second);
      hole = second;
    }
    if ((len & 1) === 0 && second === (((len - 2) / 2) | 0)) {
      second = 2 * (second + 1);
      this.move(hole, second - 1);
      hole = second - 1;
    }
    this.siftUp(hole, top);
  }

  /** `__push_heap(first, hole, top, value)`: moves parents down while they score less than the value. */
  private siftUp(hole: number, top: number): void {
    const e = this.entries;
    const v = this.value;
    const score = v[3]!;
    while (hole > top) {
      const parent = (hole - 1) >> 1;
      if (!(e[parent * QUEUE_ENTRY_FLOATS + 3]! < score)) break;
      this.move(hole, parent);
      hole = parent;
    }
    const o = hole * QUEUE_ENTRY_FLOATS;
    e[o] = v[0]!;
    e[o + 1] = v[1]!;
    e[o + 2] = v[2]!;
    e[o + 3] = v[3]!;
  }

  /** Copies entry `i` into `value`. */
  private take(i: number): void {
    const o = i * QUEUE_ENTRY_FLOATS;
    const e = this.entries;
    const v = this.value;
    v[0] = e[o]!;
    v[1] = e[o + 1]!;
    v[2] = e[o + 2]!;
    v[3] = e[o + 3]!;
  }

  private move(to: number, from: number): void {
    const e = this.entries;
    const t = to * QUEUE_ENTRY_FLOATS;
    const f = from * QUEUE_ENTRY_FLOATS;
    e[t] = e[f]!;
    e[t + 1] = e[f + 1]!;
    e[t + 2] = e[f + 2]!;
    e[t + 3] = e[f + 3]!;
  }
}

/** libstdc++'s `_S_threshold`: introsort leaves ranges of at most this many elements to insertion sort. */
const SORT_THRESHOLD = 16;

/**
 * Coral's `DecreasingArgSort`: `indices[0..len)` becomes 0, 1, …, len − 1 sorted by
 * `scores[base + i] > scores[base + j]` with libstdc++'s `std::sort`, so ties come out in the same order.
 * `indices` must hold at least `len` elements.
 */
export function decreasingArgSort(scores: Float32Array, base: number, len: number, indices: Int32Array): void {
  for (let i = 0; i < len; i++) indices[i] = i;
  if (len < 2) return;
  introsortLoop(indices, 0, len, 2 * (31 - Math.clz32(len)), scores, base);
  finalInsertionSort(indices, 0, len, scores, base);
}

/** The sort's comparator on two indices: the first sorts before the second. */
function before(scores: Float32Array, base: number, i: number, j: number): boolean {
  return scores[base + i]! > scores[base + j]!;
}

function introsortLoop(a: Int32Array, first: number, last: number, depth: number, s: Float32Array, b: number): void {
  while (last - first > SORT_THRESHOLD) {
    if (depth === 0) {
      heapSortIndices(a, first, last, s, b);
      return;
    }
    depth--;
    const mid = first + (((last - first) / 2) | 0);
    moveMedianToFirst(a, first, first + 1, mid, last - 1, s, b);
    const cut = unguardedPartition(a, first + 1, last, first, s, b);
    introsortLoop(a, cut, last, depth, s, b);
    last = cut;
  }
}

/** `__move_median_to_first`: swaps the median of positions x, y, z into `result`. */
function moveMedianToFirst(a: Int32Array, result: number, x: number, y: number, z: number, s: Float32Array, b: number): void {
  let pick: number;
  if (before(s, b, a[x]!, a[y]!)) {
    if (before(s, b, a[y]!, a[z]!)) pick = y;
    else if (before(s, b, a[x]!, a[z]!)) pick = z;
    else pick = x;
  } else if (before(s, b, a[x]!, a[z]!)) pick = x;
  else if (before(s, b, a[y]!, a[z]!)) pick = z;
  else pick = y;
  swap(a, result, pick);
}

/** `__unguarded_partition` around the element at `pivot` (which lies before `first`). */
function unguardedPartition(a: Int32Array, first: number, last: number, pivot: number, s: Float32Array, b: number): number {
  for (;;) {
    while (before(s, b, a[first]!, a[pivot]!)) first++;
    last--;
    while (before(s, b, a[pivot]!, a[last]!)) last--;
    if (!(first < last)) return first;
    swap(a, first, last);
    first++;
  }
}

function finalInsertionSort(a: Int32Array, first: number, last: number, s: Float32Array, b: number): void {
  if (last - first > SORT_THRESHOLD) {
    insertionSort(a, first, first + SORT_THRESHOLD, s, b);
    for (let i = first + SORT_THRESHOLD; i < last; i++) unguardedLinearInsert(a, i, s, b);
  } else {
    insertionSort(a, first, last, s, b);
  }
}

function insertionSort(a: Int32Array, first: number, last: number, s: Float32Array, b: number): void {
  if (first === last) return;
  for (let i = first + 1; i < last; i++) {
    const v = a[i]!;
    if (before(s, b, v, a[first]!)) {
      a.copyWithin(first + 1, first, i);
      a[first] = v;
    } else {
      unguardedLinearInsert(a, i, s, b);
    }
  }
}

function unguardedLinearInsert(a: Int32Array, last: number, s: Float32Array, b: number): void {
  const v = a[last]!;
  let next = last - 1;
  while (before(s, b, v, a[next]!)) {
    a[last] = a[next]!;
    last = next;
    next--;
  }
  a[last] = v;
}

/**
 * `std::partial_sort(first, last, last)` of `a[first..last)` by decreasing `scores[base + i]`: libstdc++'s
 * `__make_heap` then `__sort_heap`, which is what introsort falls back to when its depth limit runs out.
 */
export function heapSortIndices(a: Int32Array, first: number, last: number, s: Float32Array, b: number): void {
  const len = last - first;
  if (len >= 2) {
    for (let parent = ((len - 2) / 2) | 0; ; parent--) {
      adjustHeap(a, first, parent, len, a[first + parent]!, s, b);
      if (parent === 0) break;
    }
  }
  for (let end = last; end - first > 1;) {
    end--;
    const v = a[end]!;
    a[end] = a[first]!;
    adjustHeap(a, first, 0, end - first, v, s, b);
  }
}

/** `__adjust_heap` on indices, with the sort's comparator (a max-heap of "sorts later"). */
function adjustHeap(a: Int32Array, first: number, hole: number, len: number, v: number, s: Float32Array, b: number): void {
  const top = hole;
  let second = hole;
  const inner = ((len - 1) / 2) | 0;
  while (second < inner) {
    second = 2 * (second + 1);
    if (before(s, b, a[first + second]!, a[first + second - 1]!)) second--;
    a[first + hole] = a[first + second]!;
    hole = second;
  }
  if ((len & 1) === 0 && second === (((len - 2) / 2) | 0)) {
    second = 2 * (second + 1);
    a[first + hole] = a[first + second - 1]!;
    hole = second - 1;
  }
  while (hole > top) {
    const parent = (hole - 1) >> 1;
    if (!before(s, b, a[first + parent]!, v)) break;
    a[first + hole] = a[first + parent]!;
    hole = parent;
  }
  a[first + hole] = v;
}

function swap(a: Int32Array, i: number, j: number): void {
  const t = a[i]!;
  a[i] = a[j]!;
  a[j] = t;
}
