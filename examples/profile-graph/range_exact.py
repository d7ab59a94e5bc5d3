#!/usr/bin/env python3
"""range_exact.py - deterministic kernels in NVTX ranges: the check that a counted
range's instructions equal the sum of its kernels' in the per-kernel pass (issue
48's `--ranges nvtx` target), and how much GPU work that is not a kernel launch
(a memset, a device-to-device copy) adds to a range and to no launch.

  python3 range_exact.py [--rows N] [--steps S] [--kernels K] [--memset] [--copy]

Each step is an NVTX range "step/<i>" (torch.cuda.nvtx) of K launches of two
CuPy RawKernels on arrays allocated before the first step (no allocation,
memset or copy inside a range unless asked): --memset adds a cudaMemsetAsync
of one array (N x 4 bytes) to every range, --copy a device-to-device
cudaMemcpyAsync of one. Every kernel's work depends only on N and the data,
which come from a fixed seed, so its instruction count is the same in every
run. Prints
  checksum <hex> steps <S> kernels <K> memset <0|1> copy <0|1>
(run plain and under a profiler, the line must be equal). Exit 0, 2 bad
arguments, 77 this machine cannot run it (CuPy or PyTorch missing)."""
import argparse
import hashlib
import sys

SRC = r"""
extern "C" __global__ void axpy(const float* x, float* y, float a, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) y[i] = a * x[i] + y[i];
}
extern "C" __global__ void mix(const unsigned* k, unsigned* h, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned v = k[i] ^ h[i];
        for (int r = 0; r < 4; r++) v = (v ^ (v >> 15)) * 0x2c1b3c6du;
        h[i] = v;
    }
}
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rows", type=int, default=1 << 24)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--kernels", type=int, default=10, help="launches a step (alternating the two kernels)")
    ap.add_argument("--memset", action="store_true", help="a cudaMemsetAsync in every range")
    ap.add_argument("--copy", action="store_true", help="a device-to-device cudaMemcpyAsync in every range")
    a = ap.parse_args()
    if a.rows < 1 or a.steps < 1 or a.kernels < 1:
        print("range_exact.py: --rows, --steps and --kernels must be >= 1", file=sys.stderr)
        return 2
    try:
        import cupy as cp
        import torch
    except ImportError as e:  # this machine cannot run it: 77, not a failure of the program
        print("range_exact.py: needs CuPy and PyTorch with CUDA (pip install cupy-cuda12x torch): %s" % e, file=sys.stderr)
        return 77
    mod = cp.RawModule(code=SRC)
    axpy, mix = mod.get_function("axpy"), mod.get_function("mix")
    rng = cp.random.default_rng(7)
    x = rng.random(a.rows, dtype=cp.float32)
    y = rng.random(a.rows, dtype=cp.float32)
    k = rng.integers(0, 1 << 31, a.rows, dtype=cp.uint32)
    h = rng.integers(0, 1 << 31, a.rows, dtype=cp.uint32)
    scratch = cp.empty(a.rows, dtype=cp.uint32)
    block, grid = 256, 4 * 132
    n = cp.int32(a.rows)
    stream = cp.cuda.get_current_stream().ptr
    cp.cuda.Device().synchronize()
    for s in range(a.steps):
        torch.cuda.nvtx.range_push("step/%d" % s)
        for j in range(a.kernels):
            if j % 2 == 0:
                axpy((grid,), (block,), (x, y, cp.float32(0.5), n))
            else:
                mix((grid,), (block,), (k, h, n))
        if a.memset:
            cp.cuda.runtime.memsetAsync(scratch.data.ptr, s & 0xFF, scratch.nbytes, stream)
        if a.copy:
            cp.cuda.runtime.memcpyAsync(scratch.data.ptr, h.data.ptr, h.nbytes,
                                        cp.cuda.runtime.memcpyDeviceToDevice, stream)
        torch.cuda.nvtx.range_pop()
    cp.cuda.Device().synchronize()
    digest = hashlib.sha256()
    # the scratch array when a range wrote it (after --copy it holds h: the same line as without),
    # else h again, so that the committed runs' lines stay comparable
    for arr in (y, h, scratch if (a.memset or a.copy) else h):
        digest.update(cp.asnumpy(arr).tobytes())
    print("checksum %s steps %d kernels %d memset %d copy %d" % (digest.hexdigest()[:16], a.steps, a.kernels,
                                                                 int(a.memset), int(a.copy)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
