# wallbench: the two commands a new user needs are `make test` and
# `make run GPU=<profile>`. Everything goes through CMake in build/<profile>.
SHELL := /bin/bash
GPU ?= auto
SWEEP ?= quick
ARGS ?=
RESULTS ?=
# GPUS=all or a number: every GPU of this node on its own shard, merged (harness/node_run.sh)
GPUS ?=
WITH ?=
CMAKE_ARGS ?=
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
GENERATOR := $(if $(shell command -v ninja 2>/dev/null),-G Ninja,)

# Resolves GPU= to "<profile> <arch>", configures and builds; sets $$prof and $$b.
define build
harness/deps.sh build || exit 1; \
line=$$(harness/profile.sh $(GPU)) || exit 2; read -r prof arch <<< "$$line"; b=build/$$prof; \
if [ ! -f $$b/CMakeCache.txt ]; then cmake -S . -B $$b $(GENERATOR) -DWB_PROFILE=$$prof -DCMAKE_CUDA_ARCHITECTURES=$$arch $(CMAKE_ARGS) >/dev/null || exit 1; fi; \
cmake --build $$b -j $(JOBS) || exit 1
endef

.PHONY: all build test run plots clean
all: build

build:
	@$(build)

test:
	@$(build); harness/deps.sh plots; \
	cd $$b && ctest --output-on-failure -j $(JOBS)

run:
	@$(build); mkdir -p results/$$prof; \
	export LD_LIBRARY_PATH=$$(sed -n 's/^CUDAToolkit_LIBRARY_DIR:PATH=//p' $$b/CMakeCache.txt)$${LD_LIBRARY_PATH:+:$$LD_LIBRARY_PATH}; \
	if [ -n "$(GPUS)" ]; then harness/node_run.sh $$b/wallbench "$(GPUS)" results/$$prof --profile $$prof --sweep $(SWEEP) $(ARGS); \
	else $$b/wallbench run --profile $$prof --sweep $(SWEEP) --out results/$$prof $(ARGS); fi; rc=$$?; \
	latest=$$(ls -t results/$$prof/*.h5 2>/dev/null | head -n 1); \
	if [ -n "$$latest" ]; then \
	  if harness/deps.sh plots; then $(MAKE) --no-print-directory plots GPU=$$prof RESULTS=$$latest; \
	  else echo "plots skipped: render them elsewhere with: make plots RESULTS=$$latest"; fi; \
	fi; exit $$rc

plots:
	@$(build); if [ -z "$(RESULTS)" ]; then echo "make plots: give RESULTS=<results file.h5>" >&2; exit 2; fi; \
	harness/deps.sh plots || exit 3; \
	WALLBENCH=$$b/wallbench plots/render.sh "$(RESULTS)" $(WITH)

clean:
	rm -rf build plots/out/tmp
