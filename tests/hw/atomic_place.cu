// Does the throughput of contended global atomics depend on where the target lands?
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// like select warp: one returning atomic per warp per 32*4 items
__global__ void warp_cursor(unsigned long long *c, long long tiles, unsigned long long *sink) {
    long long w = (blockIdx.x * (long long)blockDim.x + threadIdx.x) >> 5;
    long long W = ((long long)gridDim.x * blockDim.x) >> 5;
    unsigned long long acc = 0;
    for (long long t = w; t < tiles; t += W) {
        unsigned long long b = 0;
        if ((threadIdx.x & 31) == 0) b = atomicAdd(c, 64ull);
        acc += __shfl_sync(0xffffffff, b, 0);
    }
    if (acc == 1) *sink = acc;
}
// like scan tiled ILP1: one block per tile, one RED per block
__global__ void block_red(unsigned long long *c, const int *in) {
    __shared__ int s;
    if (threadIdx.x == 0) s = 0;
    __syncthreads();
    atomicAdd(&s, in[blockIdx.x * (long long)blockDim.x + threadIdx.x] & 1);
    __syncthreads();
    if (threadIdx.x == 0 && s) atomicAdd(c, (unsigned long long)s);
}
// like groupby global: RED per item into G groups
__global__ void group_red(unsigned long long *r, const unsigned *keys, long long n, unsigned G) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, S = (long long)gridDim.x * blockDim.x;
    for (; i < n; i += S) atomicAdd(r + (keys[i] % G), 1ull);
}
__global__ void fill_keys(unsigned *k, long long n, unsigned seed) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, S = (long long)gridDim.x * blockDim.x;
    for (; i < n; i += S) { unsigned x = (unsigned)i * 2654435761u ^ seed; x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; k[i] = x; }
}
template <class F> float timeit(F f) {
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    f(); CK(cudaDeviceSynchronize());
    std::vector<float> v;
    for (int r = 0; r < 5; r++) { CK(cudaEventRecord(a)); f(); CK(cudaEventRecord(b)); CK(cudaEventSynchronize(b)); float ms; CK(cudaEventElapsedTime(&ms, a, b)); v.push_back(ms); }
    std::sort(v.begin(), v.end()); return v[2];
}
static void summary(const char *name, std::vector<float> &t) {
    std::vector<float> s = t; std::sort(s.begin(), s.end());
    printf("SUMMARY %s: %zu placements: min %.3f median %.3f max %.3f ms, max/min %.3f\n", name, s.size(), s[0], s[s.size()/2], s.back(), s.back()/s[0]);
}
int main() {
    char *pool; size_t pool_bytes = (size_t)1 << 30; CK(cudaMalloc(&pool, pool_bytes)); CK(cudaMemset(pool, 0, pool_bytes));
    unsigned long long *sink; CK(cudaMalloc(&sink, 8));
    int *in; long long nb = 1 << 20; CK(cudaMalloc(&in, nb * 256 * 4)); CK(cudaMemset(in, 1, nb * 256 * 4));
    unsigned *keys; long long nk = 1ll << 26; CK(cudaMalloc(&keys, nk * 4)); fill_keys<<<1024, 256>>>(keys, nk, 7); CK(cudaGetLastError());
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    std::vector<size_t> offs;
    for (int k = 0; k < 48; k++) offs.push_back((size_t)k * 128);                    // within one 8 KB span
    for (int k = 1; k < 48; k++) offs.push_back((size_t)k * (2u << 20) + (size_t)k * 4096 * 3); // other 2 MB pages
    std::vector<float> t1, t2;
    for (size_t o : offs) {
        unsigned long long *c = (unsigned long long *)(pool + o);
        float a = timeit([&] { warp_cursor<<<sms * 8, 256>>>(c, (1ll << 28) / 128, sink); });
        float b = timeit([&] { block_red<<<nb, 256>>>(c, in); });
        t1.push_back(a); t2.push_back(b);
        printf("off %10zu warp_cursor %.3f ms block_red %.3f ms\n", o, a, b);
    }
    summary("warp_cursor (8M returning atomics, 1 address)", t1);
    summary("block_red (1M blocks, 1 RED each)", t2);
    for (unsigned G : {1024u, 8192u}) {
        std::vector<float> t;
        for (int k = 0; k < 24; k++) {
            size_t o = (size_t)k * ((8u << 20) + 4096 * 5 + 128 * k);
            unsigned long long *r = (unsigned long long *)(pool + o);
            float a = timeit([&] { group_red<<<sms * 8, 256>>>(r, keys, nk, G); });
            t.push_back(a);
            printf("G %u off %10zu group_red %.3f ms\n", G, o, a);
        }
        char nm[64]; snprintf(nm, sizeof nm, "group_red G=%u (2^26 RED)", G); summary(nm, t);
    }
    // same data, fresh allocations: does a cudaMalloc'd 8-byte counter vary between allocations?
    std::vector<float> t3;
    std::vector<void *> keep;
    for (int k = 0; k < 24; k++) {
        unsigned long long *c; CK(cudaMalloc(&c, 8 + 4096 * k)); CK(cudaMemset(c, 0, 8)); keep.push_back(c);
        t3.push_back(timeit([&] { warp_cursor<<<sms * 8, 256>>>(c, (1ll << 28) / 128, sink); }));
    }
    summary("warp_cursor, 24 separate cudaMalloc counters", t3);
    return 0;
}
