// Runs Coral's own pose decoder (libcoral coral/posenet/posenet_decoder.cc, not part of this repository)
// on inputs read from stdin and writes its outputs to stdout, for @micrort/ops-coral's oracle test
// (packages/ops-coral/test/coral-oracle.test.ts regenerates its fixture with it). Build it against a
// libcoral checkout:
//
//   g++ -std=c++17 -O2 -I<libcoral> coral-oracle.cc <libcoral>/coral/posenet/posenet_decoder.cc -o coral-oracle
//
// Binary protocol, little-endian, one request per run. First an int32 mode:
//   1 decode:  int32 height, width, max_detections, stride, masks (0/1); float score_threshold, nms_radius;
//              then per input (heatmaps, short, mid[, long] offsets): int32 type (0 float32, 1 uint8),
//              float scale, int32 zero_point, then its values (float32 or uint8; [h, w, 17], [h, w, 34],
//              [h, w, 64], [33, 33, 34]). Runs what PosenetDecoderOp's Eval runs (dequantize, DecodeAllPoses
//              with 5 refinement steps and nms_radius / stride, DecodeInstanceMasks with 2 steps) and writes
//              float count, keypoints [M, 17, 2], keypoint scores [M, 17], pose scores [M][, masks [M, 33, 33]],
//              with every output buffer zeroed before the op runs.
//   2 sort:    int32 n, n floats; writes DecreasingArgSort's n int32 indices (std::sort).
//   3 heap:    int32 n, then n operations: int32 1 + float y, float x, int32 id, float score (push), or int32 0
//              (pop, writing the top's y, x, id as float, score first), on DecreasingScoreKeypointPriorityQueue.
//   4 heapsort: int32 n, n floats; writes the indices std::partial_sort(first, last, last) leaves with the
//              same comparator (introsort's fallback when its depth limit runs out).
//   5 expf:    int32 n, n floats; writes std::exp(float) of each (the C library's expf, as Coral's Sigmoid
//              calls it).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "coral/posenet/posenet_decoder.h"

namespace {

using coral::posenet_decoder_op::kNumEdges;
using coral::posenet_decoder_op::kNumKeypoints;
using coral::posenet_decoder_op::PoseKeypoints;
using coral::posenet_decoder_op::PoseKeypointScores;

template <typename T>
T Read() {
  T v;
  if (std::fread(&v, sizeof(T), 1, stdin) != 1) {
    std::fprintf(stderr, "coral-oracle: input ends early\n");
    std::exit(2);
  }
  return v;
}

template <typename T>
void Write(const T* data, size_t n) {
  std::fwrite(data, sizeof(T), n, stdout);
}

// PosenetDecoderOp's DequantizeTensor: uint8 as (q - zero_point) * (scale * extra_scale), float32 as
// x * extra_scale, where extra_scale is a float argument.
std::vector<float> ReadInput(size_t n, float extra_scale) {
  const int32_t type = Read<int32_t>();
  const float scale = Read<float>();
  const int32_t zero_point = Read<int32_t>();
  std::vector<float> out(n);
  if (type == 1) {
    const float quant_zero_point = static_cast<float>(zero_point);
    const float quant_scale = scale * extra_scale;
    for (size_t i = 0; i < n; ++i) out[i] = (Read<uint8_t>() - quant_zero_point) * quant_scale;
  } else {
    for (size_t i = 0; i < n; ++i) out[i] = Read<float>() * extra_scale;
  }
  return out;
}

void Decode() {
  const int height = Read<int32_t>();
  const int width = Read<int32_t>();
  const int max_detections = Read<int32_t>();
  const int stride = Read<int32_t>();
  const bool masks = Read<int32_t>() != 0;
  const float score_threshold = Read<float>();
  const float nms_radius_pixels = Read<float>();
  const size_t cells = static_cast<size_t>(height) * width;
  const auto heatmaps = ReadInput(cells * kNumKeypoints, 1.0);
  const auto shorts = ReadInput(cells * 2 * kNumKeypoints, 1.0 / stride);
  const auto mids = ReadInput(cells * 2 * 2 * kNumEdges, 1.0 / stride);
  std::vector<float> longs;
  if (masks) longs = ReadInput(33 * 33 * 2 * kNumKeypoints, 1.0 / stride);

  std::vector<float> keypoints(max_detections * kNumKeypoints * 2, 0.0f);
  std::vector<float> keypoint_scores(max_detections * kNumKeypoints, 0.0f);
  std::vector<float> pose_scores(max_detections, 0.0f);
  std::vector<float> instance_masks(max_detections * 33 * 33, 0.0f);
  const float nms_radius = nms_radius_pixels / stride;
  const float count = coral::posenet_decoder_op::DecodeAllPoses(
      heatmaps.data(), shorts.data(), mids.data(), height, width, max_detections, score_threshold, 5, nms_radius, stride,
      reinterpret_cast<PoseKeypoints*>(keypoints.data()), reinterpret_cast<PoseKeypointScores*>(keypoint_scores.data()),
      pose_scores.data());
  if (masks) {
    coral::posenet_decoder_op::DecodeInstanceMasks(longs.data(), 33, 33, reinterpret_cast<PoseKeypoints*>(keypoints.data()),
                                                   count, 2, stride, instance_masks.data());
  }
  Write(&count, 1);
  Write(keypoints.data(), keypoints.size());
  Write(keypoint_scores.data(), keypoint_scores.size());
  Write(pose_scores.data(), pose_scores.size());
  if (masks) Write(instance_masks.data(), instance_masks.size());
}

std::vector<float> ReadFloats() {
  const int32_t n = Read<int32_t>();
  std::vector<float> v(n);
  for (auto& x : v) x = Read<float>();
  return v;
}

void Sort() {
  const auto scores = ReadFloats();
  std::vector<int> indices;
  coral::DecreasingArgSort(scores, &indices);
  std::vector<int32_t> out(indices.begin(), indices.end());
  Write(out.data(), out.size());
}

void HeapSort() {
  const auto scores = ReadFloats();
  std::vector<int> indices(scores.size());
  std::iota(indices.begin(), indices.end(), 0);
  std::partial_sort(indices.begin(), indices.end(), indices.end(),
                    [&scores](const int i, const int j) { return scores[i] > scores[j]; });
  std::vector<int32_t> out(indices.begin(), indices.end());
  Write(out.data(), out.size());
}

void Heap() {
  const int32_t n = Read<int32_t>();
  coral::DecreasingScoreKeypointPriorityQueue queue;
  for (int32_t i = 0; i < n; ++i) {
    if (Read<int32_t>() == 1) {
      const float y = Read<float>();
      const float x = Read<float>();
      const int32_t id = Read<int32_t>();
      const float score = Read<float>();
      queue.emplace(coral::posenet_decoder_op::Point{y, x}, id, score);
    } else {
      const auto& top = queue.top();
      const float out[4] = {top.point.y, top.point.x, static_cast<float>(top.id), top.score};
      Write(out, 4);
      queue.pop();
    }
  }
}

void Expf() {
  const auto xs = ReadFloats();
  std::vector<float> out(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) out[i] = std::exp(xs[i]);
  Write(out.data(), out.size());
}

}  // namespace

int main() {
  switch (Read<int32_t>()) {
    case 1:
      Decode();
      break;
    case 2:
      Sort();
      break;
    case 3:
      Heap();
      break;
    case 4:
      HeapSort();
      break;
    case 5:
      Expf();
      break;
    default:
      std::fprintf(stderr, "coral-oracle: unknown mode\n");
      return 2;
  }
  return 0;
}
