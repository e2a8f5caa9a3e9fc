/**
 * The PoseNet skeleton as Coral's decoder walks it: 17 keypoints (PersonLab / COCO order) and 32
 * directed edges — 16 forward edges from the nose outwards, then the same 16 reversed — whose ids index
 * the mid-range offset channels.
 */

/** Keypoints per pose (`kNumKeypoints`). */
export const NUM_KEYPOINTS = 17;

/** Undirected edges of the skeleton (`kNumEdges`); the mid offsets hold 2 × 2 × 16 = 64 channels. */
export const NUM_EDGES = 16;

/** Keypoint names, by id (the order of the heatmap channels and of the decoder's outputs). */
export const POSENET_KEYPOINTS: readonly string[] = [
  'nose',
  'leftEye',
  'rightEye',
  'leftEar',
  'rightEar',
  'leftShoulder',
  'rightShoulder',
  'leftElbow',
  'rightElbow',
  'leftWrist',
  'rightWrist',
  'leftHip',
  'rightHip',
  'leftKnee',
  'rightKnee',
  'leftAnkle',
  'rightAnkle',
];

/**
 * The 16 forward edges as [parent, child] keypoint ids; edge k (k < 16) is `FORWARD_EDGES[k]` and edge
 * 16 + k is the same pair reversed (`kEdgeList`).
 */
const FORWARD_EDGES: readonly (readonly [number, number])[] = [
  [0, 1], // nose → left eye
  [1, 3], // left eye → left ear
  [0, 2], // nose → right eye
  [2, 4], // right eye → right ear
  [0, 5], // nose → left shoulder
  [5, 7], // left shoulder → left elbow
  [7, 9], // left elbow → left wrist
  [5, 11], // left shoulder → left hip
  [11, 13], // left hip → left knee
  [13, 15], // left knee → left ankle
  [0, 6], // nose → right shoulder
  [6, 8], // right shoulder → right elbow
  [8, 10], // right elbow → right wrist
  [6, 12], // right shoulder → right hip
  [12, 14], // right hip → right knee
  [14, 16], // right knee → right ankle
];

/** All 32 directed edges, [parent, child], by edge id. */
export const POSENET_EDGES: readonly (readonly [number, number])[] = [
  ...FORWARD_EDGES,
  ...FORWARD_EDGES.map(([parent, child]) => [child, parent] as const),
];

/**
 * Children of every keypoint with the id of the edge that reaches each (Coral's `AdjacencyList`, in
 * compressed form): keypoint k's children are `childIds[start[k] .. start[k + 1])`, reached through
 * `edgeIds` at the same positions.
 */
export interface AdjacencyList {
  readonly numNodes: number;
  readonly start: Int32Array;
  readonly childIds: Int32Array;
  readonly edgeIds: Int32Array;
}

/** An adjacency list from per-node child and edge id lists (as Coral's tests write them). */
export function adjacencyList(childIds: readonly (readonly number[])[], edgeIds: readonly (readonly number[])[]): AdjacencyList {
  const start = new Int32Array(childIds.length + 1);
  for (let k = 0; k < childIds.length; k++) start[k + 1] = start[k]! + childIds[k]!.length;
  return {
    numNodes: childIds.length,
    start,
    childIds: Int32Array.from(childIds.flat()),
    edgeIds: Int32Array.from(edgeIds.flat()),
  };
}

/**
 * Coral's `BuildAdjacencyList`: for each keypoint, its children in edge-id order (each edge appended to
 * its parent's list as the edge list is walked).
 */
export function buildAdjacencyList(edges: readonly (readonly [number, number])[] = POSENET_EDGES, numNodes = NUM_KEYPOINTS): AdjacencyList {
  const children: number[][] = Array.from({ length: numNodes }, () => []);
  const edgeIds: number[][] = Array.from({ length: numNodes }, () => []);
  edges.forEach(([parent, child], k) => {
    children[parent]!.push(child);
    edgeIds[parent]!.push(k);
  });
  return adjacencyList(children, edgeIds);
}

/** The PoseNet skeleton's adjacency list, built once. */
export const POSENET_ADJACENCY: AdjacencyList = buildAdjacencyList();
