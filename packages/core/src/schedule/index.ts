export * from './schedule-options.js';
export {
  describeSpatialOp,
  constantNodes,
  nodeMacs,
  axisPadding,
  windowOutSize,
  type SpatialOp,
  type WindowOp,
  type PadOp,
  type ElementwiseOp,
  type AxisWindow,
} from './spatial-ops.js';
export {
  stageGeometry,
  tileLiveBytes,
  type StageGeometry,
  type StageGraph,
  type StageNode,
  type TileBuffer,
  type TileStep,
  type AxisTile,
  type FillRule,
} from './patch-geometry.js';
export {
  searchPatchStage,
  normalLiveBytes,
  describeSteps,
  stageGraphOf,
  tileSizes,
  plannedBytes,
  type SearchInput,
  type SearchResult,
  type SearchStep,
  type StageChoice,
  type StepOps,
} from './patch-search.js';
export { PatchStage, SCHEDULE_PROVIDER } from './patch-stage.js';
export {
  ScheduleRun,
  type ScheduleReport,
  type PatchReport,
  type PatchBufferInfo,
  type InPlaceNodeInfo,
  type PatchDecision,
} from './schedule-run.js';
