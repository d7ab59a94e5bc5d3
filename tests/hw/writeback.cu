// Dirty L2 lines surviving the flush: DRAM writes inside a read-only kernel after each flush variant.
// Run under: ncu --cache-control none --clock-control none --metrics dram__sectors_write.sum,dram__sectors_read.sum -k regex:probe_
#include <cstdio>
#include <cstdlib>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void fill(unsigned *p, size_t n, unsigned seed) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, S = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += S) { unsigned x = (unsigned)i * 2654435761u ^ seed; x ^= x >> 15; x *= 2246822519u; p[i] = x ^ (x >> 13); }
}
__global__ void flush_cg(const uint4 *b, size_t w, unsigned *sink) {
    unsigned acc = 0; size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, S = (size_t)gridDim.x * blockDim.x;
    for (; i < w; i += S) { uint4 a = __ldcg(b + i); acc ^= a.x ^ a.y ^ a.z ^ a.w; }
    if (acc == ~0u) *sink = acc;
}
__global__ void flush_last(const uint4 *b, size_t w, unsigned *sink) {
    unsigned acc = 0; size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, S = (size_t)gridDim.x * blockDim.x;
    for (; i < w; i += S) {
        uint4 a;
        unsigned long long pol;
        asm volatile("createpolicy.fractional.L2::evict_last.b64 %0, 1.0;" : "=l"(pol));
        asm volatile("ld.global.L2::cache_hint.v4.u32 {%0,%1,%2,%3}, [%4], %5;" : "=r"(a.x), "=r"(a.y), "=r"(a.z), "=r"(a.w) : "l"(b + i), "l"(pol));
        acc ^= a.x ^ a.y ^ a.z ^ a.w;
    }
    if (acc == ~0u) *sink = acc;
}
__global__ void demote(const char *b, size_t bytes) {
    size_t i = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) * 128, S = (size_t)gridDim.x * blockDim.x * 128;
    for (; i < bytes; i += S) asm volatile("applypriority.global.L2::evict_normal [%0], 128;" :: "l"(b + i));
}
// random reads: the probe of a read-only kernel
template <int V> __global__ void probe_(const unsigned *t, size_t mask, const unsigned *k, size_t n, unsigned long long *out) {
    unsigned long long s = 0; size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x, S = (size_t)gridDim.x * blockDim.x;
    for (; i < n; i += S) s += t[(k[i] * 2654435761ull) & mask];
    if (s == 1) *out = s;
}
int main() {
    const size_t L2 = 60u << 20;
    size_t tn = (size_t)1 << 30;  // 4 GiB table of u32
    unsigned *t, *k, *sink; unsigned long long *out; char *f1, *f2;
    size_t kn = 1 << 20;
    CK(cudaMalloc(&t, tn * 4)); CK(cudaMalloc(&k, kn * 4)); CK(cudaMalloc(&sink, 4)); CK(cudaMalloc(&out, 8));
    CK(cudaMalloc(&f1, 8 * L2)); CK(cudaMalloc(&f2, 8 * L2)); CK(cudaMemset(f1, 0, 8 * L2)); CK(cudaMemset(f2, 0, 8 * L2));
    fill<<<4096, 256>>>(k, kn, 3);
    int G = 132 * 8;
    auto setup = [&] { fill<<<4096, 256>>>(t, tn, 1); };  // the build: 4 GiB written, last ~60 MB dirty in L2
#define FL(b, bytes) flush_cg<<<G, 256>>>((const uint4 *)(b), (bytes) / 16, sink)
#define PR(V) probe_<V><<<G, 256>>>(t, tn - 1, k, kn, out); probe_<V + 100><<<G, 256>>>(t, tn - 1, k, kn, out)
    setup(); PR(0);                                        // 0: no flush
    setup(); FL(f1, 2 * L2); PR(1);                          // 1: read 2x L2 (today's flush)
    setup(); FL(f1, 8 * L2); PR(2);                          // 2: read 8x L2
    setup(); FL(f1, 2 * L2); FL(f2, 2 * L2); PR(3);            // 3: read 2x L2 twice, two buffers
    setup(); flush_last<<<G, 256>>>((const uint4 *)f1, 2 * L2 / 16, sink); demote<<<G, 256>>>(f1, 2 * L2); PR(4); // 4: evict_last read, then demote
    FL(f1, 2 * L2); PR(5);                                   // 5: no set-up writes: background
    setup(); CK(cudaDeviceSynchronize()); FL(f1, 2 * L2); CK(cudaDeviceSynchronize()); PR(6);  // 6: as 1 with syncs between
    setup(); FL(f1, 2 * L2); FL(f1, 2 * L2); PR(7);            // 7: the same buffer read twice
    CK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
