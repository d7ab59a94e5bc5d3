#!/usr/bin/env python3
"""graph_steps.py - a program that repeats its work as a training step or a
query batch does, and runs part of it as a CUDA graph: the second test program
of `wallbench profile -- CMD` (issue 48), the one a profiler must not change.

  python3 graph_steps.py [--rows N] [--steps S] [--capture-mode global|thread_local|relaxed]
                         [--no-graph] [--seed K]

Each step (NVTX range "step/<i>", sub-ranges "eager", "side", "graph", "coop"):
  eager   a batch of rows filtered, scaled and reduced by PyTorch's own kernels
          (about 30 launches), on the default stream
  side    a segment sum of the same batch on a second stream (torch.cuda.Stream),
          joined back by an event
  graph   a CUDA graph captured once before the steps (torch.cuda.graph, the
          capture mode of --capture-mode) replayed: a small MLP-like chain of
          matmuls, activations and a softmax over the batch (one cuGraphLaunch)
  coop    a CuPy kernel launched as a cooperative kernel (grid-wide sync): the
          block partial sums, then their total, in one launch
The default 8 steps make over 500 kernel launches. Data are drawn from a fixed
seed and every reduction is deterministic, so two runs print the same line:
  checksum <hex> steps <S> launches_eager <n>
(the checksum covers every step's outputs), then
  timed_region_ms=<float>
Run plain and under any profiler, the checksum line must be equal: that is the
test that a profiler did not change the program (tests/gpu_profile_graph.sh).
Exit: 0, 2 bad arguments, 4 the cooperative kernel's total differs from the
eager total (a wrong result), 77 this machine cannot run it (CuPy, PyTorch or a CUDA device missing)."""
import argparse
import hashlib
import sys
import time

COOP_SRC = r"""
#include <cooperative_groups.h>
extern "C" __global__ void coop_total(const float* x, int n, float* partial, float* total) {
    namespace cg = cooperative_groups;
    cg::grid_group grid = cg::this_grid();
    __shared__ float s[256];
    float acc = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) acc += x[i];
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    grid.sync();
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        float t = 0.f;
        for (int b = 0; b < gridDim.x; b++) t += partial[b];
        *total = t;
    }
}
"""


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1 << 22, help="rows of a step's batch")
    ap.add_argument("--steps", type=int, default=8)
    ap.add_argument("--capture-mode", choices=["global", "thread_local", "relaxed"], default="global",
                    help="torch.cuda.graph's capture_error_mode (PyTorch's default: global)")
    ap.add_argument("--no-graph", action="store_true", help="run the graph's work eagerly instead")
    ap.add_argument("--seed", type=int, default=7)
    a = ap.parse_args()
    if a.rows < 1024 or a.steps < 1:
        ap.error("--rows >= 1024 and --steps >= 1")
    return a


def main():
    a = parse_args()
    try:
        import cupy
        import torch
        import torch.cuda.nvtx as nvtx
    except ImportError as e:  # this machine cannot run it: 77, not a failure of the program
        print("graph_steps.py: needs CuPy and PyTorch with CUDA (pip install cupy-cuda12x torch): %s" % e, file=sys.stderr)
        return 77
    if not torch.cuda.is_available():
        print("graph_steps.py: torch sees no CUDA device", file=sys.stderr)
        return 77

    dev = torch.device("cuda")
    gen = torch.Generator(device=dev).manual_seed(a.seed)
    feat = 256
    batch = torch.rand(a.rows, device=dev, generator=gen, dtype=torch.float32)
    keys = torch.randint(0, 64, (a.rows,), device=dev, generator=gen)
    w1 = torch.rand(feat, feat, device=dev, generator=gen) / feat
    w2 = torch.rand(feat, 16, device=dev, generator=gen) / feat
    static_in = torch.rand(a.rows // feat, feat, device=dev, generator=gen)
    side = torch.cuda.Stream()
    coop = cupy.RawKernel(COOP_SRC, "coop_total", options=("-std=c++17",), enable_cooperative_groups=True)
    blocks = 2 * torch.cuda.get_device_properties(dev).multi_processor_count
    partial = cupy.zeros(blocks, dtype=cupy.float32)
    total = cupy.zeros(1, dtype=cupy.float32)

    def mlp(x):
        h = torch.relu(x @ w1)
        h = torch.relu(h @ w1) + h
        return torch.softmax(h @ w2, dim=1).sum(dim=0)

    if not a.no_graph:
        warm = torch.cuda.Stream()  # PyTorch's recipe: warm up on a side stream before capture
        warm.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(warm):
            for _ in range(2):
                static_out = mlp(static_in)
        torch.cuda.current_stream().wait_stream(warm)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph, capture_error_mode=a.capture_mode):
            static_out = mlp(static_in)

    digest = hashlib.sha256()
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for step in range(a.steps):
        nvtx.range_push(f"step/{step}")
        nvtx.range_push("eager")
        x = batch * (1.0 + 0.01 * step)
        kept = torch.where(x > 0.25, x, torch.zeros_like(x))
        scaled = kept * 3.0 - 1.0
        stats = torch.stack([scaled.sum(), scaled.max(), scaled.min(), (scaled > 0).sum().float()])
        for _ in range(6):
            scaled = torch.tanh(scaled) * 0.5 + scaled * 0.5
            stats = stats + torch.stack([scaled.sum(), scaled.abs().max()]).repeat(2)
        nvtx.range_pop()
        nvtx.range_push("side")
        side.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(side):
            seg = torch.zeros(64, device=dev, dtype=torch.float64)
            seg.index_add_(0, keys, kept.double())  # float64 sums of float32 values: exact, any order
        torch.cuda.current_stream().wait_stream(side)
        nvtx.range_pop()
        nvtx.range_push("graph")
        static_in.mul_(0.5).add_(0.25)
        if a.no_graph:
            static_out = mlp(static_in)
        else:
            graph.replay()
        nvtx.range_pop()
        nvtx.range_push("coop")
        xs = cupy.asarray(kept)  # shares kept's memory
        coop((blocks,), (256,), (xs, cupy.int32(xs.size), partial, total))
        nvtx.range_pop()
        nvtx.range_pop()
        # Host copies after the step: the checksum covers what every step produced.
        digest.update(stats.cpu().numpy().tobytes())
        digest.update(seg.cpu().numpy().tobytes())
        digest.update(static_out.cpu().numpy().round(5).tobytes())
        coop_total = float(total.get()[0])
        eager_total = float(kept.double().sum().item())
        if abs(coop_total - eager_total) > 1e-3 * max(1.0, abs(eager_total)):
            print(f"step {step}: cooperative total {coop_total} != eager total {eager_total}", file=sys.stderr)
            return 4
    torch.cuda.synchronize()
    t1 = time.perf_counter()
    print(f"checksum {digest.hexdigest()[:16]} steps {a.steps} graph {'no' if a.no_graph else a.capture_mode}")
    print(f"timed_region_ms={1e3 * (t1 - t0):.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
