/* flush_ptx.h - the counter pass's own kernels, as PTX the driver compiles at load (flush.c;
 * tests/test_flush_ptx.c assembles them for every target the suite supports). */
#ifndef WB_PROFILE_INJECT_FLUSH_PTX_H
#define WB_PROFILE_INJECT_FLUSH_PTX_H

/* The L2 flush (--cache-control all): a kernel that reads 2x the L2 through it before each
 * counted launch. A read leaves the L2 clean, where a memset (the first version) left it full of
 * dirty lines for the next kernel to write back. With a one-pass set it runs on the launch's own
 * stream in the program's context, ordered before the kernel by the stream itself (no
 * synchronization, no context switch: 2026-12-04, the separate context cost ~23 ms a launch on the
 * H200); with kernel replay it runs in a context of its own, outside the auto ranges, after
 * synchronizing the launch's stream. PTX, JIT-compiled once for any GPU. */
static const char flush_ptx[] =
    ".version 7.0\n.target sm_70\n.address_size 64\n"
    ".visible .entry wb_l2_flush(.param .u64 buf, .param .u64 words, .param .u64 sink)\n{\n"
    "  .reg .pred p;\n  .reg .b32 acc, v, t, nt, c, nc;\n  .reg .b64 i, n, stride, a, base, s, t64;\n"
    "  ld.param.u64 base, [buf];\n  ld.param.u64 n, [words];\n  ld.param.u64 s, [sink];\n"
    "  mov.u32 t, %tid.x;\n  mov.u32 nt, %ntid.x;\n  mov.u32 c, %ctaid.x;\n  mov.u32 nc, %nctaid.x;\n"
    "  mul.wide.u32 i, c, nt;\n  cvt.u64.u32 t64, t;\n  add.u64 i, i, t64;\n  mul.wide.u32 stride, nc, nt;\n"
    "  mov.u32 acc, 0;\nLOOP:\n  setp.ge.u64 p, i, n;\n  @p bra DONE;\n  shl.b64 a, i, 2;\n  add.u64 a, base, a;\n"
    "  ld.global.cg.u32 v, [a];\n  xor.b32 acc, acc, v;\n  add.u64 i, i, stride;\n  bra LOOP;\n"
    "DONE:\n  setp.ne.u32 p, acc, 2147483647;\n  @p bra END;\n  st.global.u32 [s], acc;\nEND:\n  ret;\n}\n";

/* WB_PROFILE_FLUSH=empty: after the flush, every 128-byte line of its buffer is discarded from
 * the L2 (discard.global.L2: invalidated, not written back; the buffer's contents do not matter),
 * so that the kernel starts with an empty L2, as after ncu's flush, instead of one full of clean
 * lines: the experiment on DRAM writes (issue 48 target 6). sm_80 and later. */
static const char discard_ptx[] =
    ".version 7.4\n.target sm_80\n.address_size 64\n"
    ".visible .entry wb_l2_empty(.param .u64 buf, .param .u64 lines)\n{\n"
    "  .reg .pred p;\n  .reg .b32 t, nt, c, nc;\n  .reg .b64 i, n, stride, a, base, t64;\n"
    "  ld.param.u64 base, [buf];\n  ld.param.u64 n, [lines];\n"
    "  mov.u32 t, %tid.x;\n  mov.u32 nt, %ntid.x;\n  mov.u32 c, %ctaid.x;\n  mov.u32 nc, %nctaid.x;\n"
    "  mul.wide.u32 i, c, nt;\n  cvt.u64.u32 t64, t;\n  add.u64 i, i, t64;\n  mul.wide.u32 stride, nc, nt;\n"
    "LOOP:\n  setp.ge.u64 p, i, n;\n  @p bra DONE;\n  shl.b64 a, i, 7;\n  add.u64 a, base, a;\n"
    "  discard.global.L2 [a], 128;\n  add.u64 i, i, stride;\n  bra LOOP;\nDONE:\n  ret;\n}\n";

#endif
