// Does a latency-bound two-stream read (group-by shared at occupancy 0.125, ILP 1) run at a
// speed set by where its two inputs lie relative to each other? Record 5280b51 and its repeat
// on one board moved such points 2-4% between processes with 0.1% noise inside each.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)

// like groupby shared at ILP 1: key and value of row i, a shared-memory add per row, one merge per block
__global__ void two_stream(const unsigned *keys, const unsigned *vals, long long n, unsigned G,
                           unsigned long long *out) {
    extern __shared__ unsigned long long tab[];
    for (unsigned g = threadIdx.x; g < G; g += blockDim.x) tab[g] = 0;
    __syncthreads();
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, S = (long long)gridDim.x * blockDim.x;
    for (; i < n; i += S) atomicAdd(&tab[keys[i] % G], (unsigned long long)vals[i]);
    __syncthreads();
    for (unsigned g = threadIdx.x; g < G; g += blockDim.x) atomicAdd(&out[g], tab[g]);
}
__global__ void fill(unsigned *k, long long n, unsigned seed) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x, S = (long long)gridDim.x * blockDim.x;
    for (; i < n; i += S) { unsigned x = (unsigned)i * 2654435761u ^ seed; x ^= x >> 15; x *= 2246822519u; x ^= x >> 13; k[i] = x; }
}
static float run(const unsigned *k, const unsigned *v, long long n, int grid, unsigned long long *out) {
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<float> t;
    for (int r = 0; r < 7; r++) {
        CK(cudaEventRecord(a)); two_stream<<<grid, 256, 175 * 8>>>(k, v, n, 175, out); CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b)); CK(cudaGetLastError()); float ms; CK(cudaEventElapsedTime(&ms, a, b)); t.push_back(ms);
    }
    std::sort(t.begin(), t.end()); return t[3];
}
static void summary(const char *name, std::vector<float> &t) {
    std::vector<float> s = t; std::sort(s.begin(), s.end());
    printf("SUMMARY %s: %zu placements: min %.3f median %.3f max %.3f ms, max/min %.3f\n", name, s.size(), s[0], s[s.size() / 2], s.back(), s.back() / s[0]);
}
int main() {
    const long long n = 1ll << 28; const size_t bytes = (size_t)n * 4, page = (size_t)2 << 20;
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int grid = sms; // one block of 256 per SM: occupancy 0.125
    unsigned long long *out; CK(cudaMalloc(&out, 175 * 8));
    // 1: one pool, keys at 0, values at bytes + d for d over pages and lines
    char *pool; CK(cudaMalloc(&pool, 2 * bytes + 64 * page)); unsigned *keys = (unsigned *)pool;
    fill<<<1024, 256>>>((unsigned *)pool, (long long)((2 * bytes + 64 * page) / 4), 7); CK(cudaDeviceSynchronize());
    std::vector<float> t1;
    for (int k = 0; k < 32; k++) {
        size_t d = (size_t)k * page + (size_t)(k % 8) * 33 * 128;
        float ms = run(keys, (unsigned *)(pool + bytes + d), n, grid, out); t1.push_back(ms);
        printf("pool values at keys + 1 GiB + %zu: %.3f ms\n", d, ms);
    }
    summary("values placed after keys", t1);
    // 2: the same placement timed again (the noise of one placement)
    std::vector<float> t2;
    for (int r = 0; r < 8; r++) t2.push_back(run(keys, (unsigned *)(pool + bytes), n, grid, out));
    summary("one placement, 8 times", t2);
    CK(cudaFree(pool));
    // 3: separate allocations after a spacer of s pages (what allocation history does)
    std::vector<float> t3;
    for (int s = 0; s < 16; s++) {
        unsigned *k, *v; char *spacer = nullptr;
        CK(cudaMalloc(&k, bytes)); if (s) CK(cudaMalloc(&spacer, (size_t)s * 3 * page)); CK(cudaMalloc(&v, bytes));
        fill<<<1024, 256>>>(k, n, 7); fill<<<1024, 256>>>(v, n, 9); CK(cudaDeviceSynchronize());
        float ms = run(k, v, n, grid, out); t3.push_back(ms);
        printf("cudaMalloc keys, spacer %d pages, values (values - keys = %lld B): %.3f ms\n", 3 * s, (long long)((char *)v - (char *)k), ms);
        CK(cudaFree(v)); if (spacer) CK(cudaFree(spacer)); CK(cudaFree(k));
    }
    summary("separate allocations", t3);
    // 4: allocated after a history of allocations of many sizes, every other one freed
    // (what a long sweep does to the allocator): fragmented physical memory, smaller TLB reach?
    std::vector<float> t4;
    for (int h = 0; h < 6; h++) {
        std::vector<void *> held;
        unsigned x = 12345u + 77u * h;
        for (int j = 0; j < 3000; j++) {
            x = x * 1664525u + 1013904223u;
            size_t sz = ((size_t)64 << 10) << ((x >> 24) % 8); // 64 KB .. 8 MB
            void *q; CK(cudaMalloc(&q, sz)); held.push_back(q);
        }
        for (size_t j = 0; j < held.size(); j += 2) CK(cudaFree(held[j]));
        unsigned *k, *v; CK(cudaMalloc(&k, bytes)); CK(cudaMalloc(&v, bytes));
        fill<<<1024, 256>>>(k, n, 7); fill<<<1024, 256>>>(v, n, 9); CK(cudaDeviceSynchronize());
        float ms = run(k, v, n, grid, out); t4.push_back(ms);
        printf("after history %d (3000 allocations of 64 KB-8 MB, every other freed): %.3f ms\n", h, ms);
        CK(cudaFree(v)); CK(cudaFree(k));
        for (size_t j = 1; j < held.size(); j += 2) CK(cudaFree(held[j]));
    }
    summary("after an allocation history", t4);
    return 0;
}
