# wallbench: the two commands a new user needs are `make test` and
# `make run GPU=<row>`, <row> a GPU row of harness/gpus.tsv (h200, l4, ...; not a profiler's file:
# that is `wallbench profile`). Everything goes through CMake in build/<row>.
SHELL := /bin/bash
# OUT, ARGS, RESULTS, WITH and BASELINE come from make's command line only: names this common are
# often in the environment for other reasons (the GPU machine of this project exports OUT, and
# `make run` wrote its results there and printed OUT=... in its next steps).
$(foreach v,OUT ARGS RESULTS WITH BASELINE,$(if $(filter environment,$(origin $(v))),$(eval $(v) :=)))
GPU ?= auto
SWEEP ?= quick
ARGS ?=
RESULTS ?=
# GPUS=all or a number: every GPU of this node on its own shard, merged (harness/node_run.sh)
GPUS ?=
WITH ?=
# make check: the baseline the newest run is checked against (default: this machine's
# results/<row>/local/baseline-quick.h5 kept by make baseline, else the committed
# results/<row>/baseline-quick.h5); make baseline: where to keep it instead
BASELINE ?=
CMAKE_ARGS ?=
# CUDA_ARCHS="80;86;89;90;100;120": one binary for several GPUs (build/<row>-80_86_...);
# CUDA_ARCHS=80-virtual: PTX only, JIT-compiled by the driver. Default: the GPU row's architecture.
CUDA_ARCHS ?=
# Results folder of make run (default results/<row>).
OUT ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE ?= cmake
GENERATOR := $(if $(shell command -v ninja 2>/dev/null),-G Ninja,)

# Resolves GPU= (and CUDA_ARCHS=) to "<row> <archs> <kind> <build>" (harness/gpu_row.sh),
# configures and builds; sets $$prof, $$kind (row or generic) and $$b.
define build
harness/deps.sh build || exit 1; \
line=$$(CUDA_ARCHS='$(CUDA_ARCHS)' harness/gpu_row.sh $(GPU)) || exit 2; read -r prof arch kind bdir <<< "$$line"; b=build/$$bdir; \
if [ ! -f $$b/CMakeCache.txt ]; then $(CMAKE) -S . -B $$b $(GENERATOR) -DWB_PROFILE=$$prof "-DCMAKE_CUDA_ARCHITECTURES=$$arch" $(CMAKE_ARGS) >/dev/null || exit 1; fi; \
$(CMAKE) --build $$b -j $(JOBS) || exit 1
endef

.PHONY: all build test run check baseline plots clean ci-archs
all: build

build:
	@$(build)

# The Python tests' h5py/numpy/pandas where they can be installed (harness/deps.sh python: a venv
# in build/ put first on PATH); the skipped tests and why, at the end.
test:
	@$(build); harness/deps.sh plots; py=$$(harness/deps.sh python) && [ -n "$$py" ] && export PATH=$$py:$$PATH; \
	cd $$b && mkdir -p Testing && ctest --output-on-failure -j $(JOBS) | tee Testing/ctest-output.txt; rc=$${PIPESTATUS[0]}; \
	$(CURDIR)/harness/skipped.sh Testing/ctest-output.txt Testing/Temporary/LastTest.log; exit $$rc

# A generic GPU row (a GPU without a row in gpus.tsv) is found by wallbench itself, from the device.
run:
	@$(build); out=$(if $(OUT),$(OUT),results/$$prof); mkdir -p $$out; \
	export LD_LIBRARY_PATH=$$(sed -n 's/^CUDAToolkit_LIBRARY_DIR:PATH=//p' $$b/CMakeCache.txt)$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}; \
	popt=$$([ $$kind = row ] && echo --profile $$prof); stamp=$$(mktemp); \
	if [ -n "$(GPUS)" ]; then harness/node_run.sh $$b/wallbench "$(GPUS)" $$out $$popt --sweep $(SWEEP) $(ARGS); \
	else $$b/wallbench run $$popt --sweep $(SWEEP) --out $$out $(ARGS); fi; rc=$$?; \
	latest=$$(find $$out -maxdepth 1 -name '*.h5' ! -name '*-projected-*' -newer $$stamp 2>/dev/null | LC_ALL=C sort | tail -n 1); \
	rm -f $$stamp; \
	if [ -n "$$latest" ]; then figs=; \
	  if harness/deps.sh plots; then $(MAKE) --no-print-directory plots GPU=$(GPU) CUDA_ARCHS='$(CUDA_ARCHS)' RESULTS=$$latest && \
	    figs=plots/out/$$(basename $$latest .h5); \
	  else echo "plots skipped: render them elsewhere with: make plots RESULTS=$$latest"; fi; \
	  harness/next_steps.sh $$latest $$prof $$b $$figs; \
	else echo "make run: this run wrote no results file in $$out: nothing plotted"; fi; exit $$rc

# Your newest run of results/<row> (or OUT; committed records are nobody's run) against the row's
# quick-sweep baseline (BASELINE, this machine's kept by make baseline, or the committed one);
# no baseline yet: says what to do; no run of yours: says so, exit 2.
check:
	@$(build); harness/check_latest.sh $$b/wallbench $(if $(OUT),$(OUT),results/$$prof) $$prof $(BASELINE)

# Keeps your newest run of results/<row> (or OUT; never a committed record) as this machine's quick-sweep baseline
# (results/<row>/local/, untracked; or BASELINE), for make check. No build needed.
baseline:
	@line=$$(CUDA_ARCHS='$(CUDA_ARCHS)' harness/gpu_row.sh $(GPU)) || exit 2; read -r prof arch kind bdir <<< "$$line"; \
	harness/keep_baseline.sh $(if $(OUT),$(OUT),results/$$prof) $$prof $(BASELINE)

plots:
	@$(build); if [ -z "$(RESULTS)" ]; then echo "make plots: give RESULTS=<results file.h5>" >&2; exit 2; fi; \
	harness/deps.sh plots || exit 3; \
	WALLBENCH=$$b/wallbench $(if $(OUT),WB_PLOTS_OUT="$(OUT)") plots/render.sh "$(RESULTS)" $(WITH)

# CI: the kernels compiled (not linked) for sm_80, 86, 89, 100 and 120, which CI has no GPU of.
ci-archs:
	@$(build); t0=$$(date +%s); cmake --build $$b -j $(JOBS) --target wb_kernels_archs || exit 1; \
	echo "ci-archs: kernels compiled for $$(sed -n 's/^WB_CI_ARCHS:STRING=//p' $$b/CMakeCache.txt) in $$(( $$(date +%s) - t0 )) s"

clean:
	rm -rf build plots/out/tmp
