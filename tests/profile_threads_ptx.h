/* profile_threads_ptx.h - the kernel of tests/profile_threads.c, in PTX (C only outside kernels/:
 * the driver compiles it; tests/test_flush_ptx.c assembles it on the CPU first).
 * wb_accumulate(out, in, n, k): out[i] += in[i] * k + i for i < n. */
#ifndef WB_PROFILE_THREADS_PTX_H
#define WB_PROFILE_THREADS_PTX_H

static const char accumulate_ptx[] =
    ".version 7.0\n"
    ".target sm_80\n"
    ".address_size 64\n"
    ".visible .entry wb_accumulate(.param .u64 p_out, .param .u64 p_in, .param .u32 p_n, .param .u32 p_k)\n"
    "{\n"
    "  .reg .pred %p;\n"
    "  .reg .b32 %r<10>;\n"
    "  .reg .b64 %rd<8>;\n"
    "  ld.param.u64 %rd1, [p_out];\n"
    "  ld.param.u64 %rd2, [p_in];\n"
    "  ld.param.u32 %r1, [p_n];\n"
    "  ld.param.u32 %r2, [p_k];\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mov.u32 %r5, %tid.x;\n"
    "  mad.lo.s32 %r6, %r3, %r4, %r5;\n"
    "  setp.ge.u32 %p, %r6, %r1;\n"
    "  @%p bra DONE;\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  cvta.to.global.u64 %rd4, %rd2;\n"
    "  mul.wide.u32 %rd5, %r6, 4;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r7, [%rd6];\n"
    "  add.s64 %rd7, %rd3, %rd5;\n"
    "  ld.global.u32 %r8, [%rd7];\n"
    "  mad.lo.s32 %r9, %r7, %r2, %r8;\n"
    "  add.s32 %r9, %r9, %r6;\n"
    "  st.global.u32 [%rd7], %r9;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n";

#endif
