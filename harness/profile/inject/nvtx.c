/* nvtx.c - the NVTX range stack of each thread, the operators of Valk's
 * tables. The driver points NVTX_INJECTION64_PATH at this library, so NVTX
 * (v2's libnvToolsExt and v3's header-only copies compiled into PyTorch, CuPy
 * or the program) loads it on the first NVTX call, which may come before CUDA
 * loads it as CUDA_INJECTION64_PATH: the same file, so the same copy. Going
 * through CUPTI's NVTX domain instead lost every range on the H200 (a program
 * that loads its own libcupti then holds two copies, and NVTX reports to the
 * other one). */
#include <stdlib.h>
#include <string.h>

#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExt.h>

#include "harness/profile/inject/inject.h"

static __thread char path[WB_NVTX_PATH];
static __thread int len_at[WB_NVTX_DEPTH + 1]; /* path length at each depth */
static __thread int depth, overflow;

const char *wb_nvtx_path(void) { return path; }

static void push(const char *msg) {
    if (depth >= WB_NVTX_DEPTH) {
        overflow++;
        return;
    }
    int len = len_at[depth];
    char name[96];
    snprintf(name, sizeof name, "%s", msg && *msg ? msg : "(unnamed)");
    for (char *p = name; *p; p++)
        if (*p == '/' || *p == '\t' || *p == '\n') *p = '_'; /* '/' separates the levels of the path */
    snprintf(path + len, sizeof path - (size_t)len, "%s%s", len ? "/" : "", name);
    len_at[++depth] = (int)strlen(path);
    if (depth == 1) wb_counting_nvtx(path); /* --ranges nvtx: the outermost range opens */
}

static void pop(void) {
    if (overflow > 0) {
        overflow--;
        return;
    }
    if (depth == 0) return; /* a pop without its push */
    path[len_at[--depth]] = '\0';
    if (depth == 0) wb_counting_nvtx(NULL);
}

static const char *message(const nvtxEventAttributes_t *a) {
    if (!a) return NULL;
    if (a->messageType == NVTX_MESSAGE_TYPE_ASCII) return a->message.ascii;
    /* A registered string's handle is what register_string returned: its copy. */
    if (a->messageType == NVTX_MESSAGE_TYPE_REGISTERED) return a->message.registered ? (const char *)a->message.registered : "";
    return "(wide string)";
}

static int NVTX_API push_a(const char *msg) { push(msg); return depth - 1; }
static int NVTX_API push_w(const wchar_t *msg) { (void)msg; push("(wide string)"); return depth - 1; }
static int NVTX_API push_ex(const nvtxEventAttributes_t *a) { push(message(a)); return depth - 1; }
static int NVTX_API pop_core(void) { pop(); return depth; }
static int NVTX_API domain_push_ex(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) {
    (void)d;
    push(message(a));
    return depth - 1;
}
static int NVTX_API domain_pop(nvtxDomainHandle_t d) {
    (void)d;
    pop();
    return depth;
}

/* Libraries name ranges once and push the handle (CUB, Thrust): the handle is a copy of the name. */
static nvtxStringHandle_t NVTX_API register_string_a(nvtxDomainHandle_t d, const char *str) {
    (void)d;
    return (nvtxStringHandle_t)strdup(str ? str : "");
}

static int set(const NvtxExportTableCallbacks *cb, NvtxCallbackModule module, unsigned id, NvtxFunctionPointer fn) {
    NvtxFunctionTable table = NULL;
    unsigned int size = 0;
    if (!cb->GetModuleFunctionTable(module, &table, &size) || !table || id >= size || !table[id]) return 0;
    *table[id] = fn;
    return 1;
}

/* Called by NVTX when NVTX_INJECTION64_PATH names this library. */
__attribute__((visibility("default"))) int InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get) {
    const NvtxExportTableCallbacks *cb = get ? get(NVTX_ETID_CALLBACKS) : NULL;
    if (!cb || !cb->GetModuleFunctionTable) return 0;
    int ok = set(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushA, (NvtxFunctionPointer)push_a) &
             set(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushW, (NvtxFunctionPointer)push_w) &
             set(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePushEx, (NvtxFunctionPointer)push_ex) &
             set(cb, NVTX_CB_MODULE_CORE, NVTX_CBID_CORE_RangePop, (NvtxFunctionPointer)pop_core);
    /* Domains (CORE2) are optional: an old NVTX has none. */
    set(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePushEx, (NvtxFunctionPointer)domain_push_ex);
    set(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRangePop, (NvtxFunctionPointer)domain_pop);
    set(cb, NVTX_CB_MODULE_CORE2, NVTX_CBID_CORE2_DomainRegisterStringA, (NvtxFunctionPointer)register_string_a);
    return ok;
}
