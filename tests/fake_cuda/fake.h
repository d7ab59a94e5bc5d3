/* fake.h - what tests/test_inject_fake.c asks of the fake CUDA and CUPTI (fake_cuda.c,
 * fake_cupti.c), beside the CUDA and CUPTI functions they define. */
#ifndef WB_TEST_FAKE_H
#define WB_TEST_FAKE_H

#include <stdint.h>

#include <cupti.h>

/* The subscriber's callback, as the driver calls it around an API. */
void fake_cupti_call(CUpti_CallbackDomain domain, CUpti_CallbackId id, const void *data);
/* A kernel ran on the GPU (the program's, or the injection's own flush: fake_cuda's
 * cuLaunchKernel): one range in auto range mode, added to the open one in user range mode, and
 * an Activity record. */
void fake_kernel_ran(uint32_t correlation, double inst);
/* The same, in context ctx: a range only in the context the profiler was enabled on. */
void fake_kernel_ran_in(CUcontext ctx, uint32_t correlation, double inst);
/* How many batches the injection decoded; how many flushes of the Activity buffers it asked for. */
int fake_cupti_decodes(void);
int fake_cupti_flushes(int forced);
/* How many range profiler objects the injection enabled. */
int fake_cupti_enables(void);

#define FAKE_FLUSH_INST 7.0      /* the injection's flush kernel's instructions, as fake_cuda runs it */
#define FAKE_ONE_PASS_METRICS 12 /* a set of more metrics needs 6 passes */

#endif
