# wallbenchConfig.cmake - find_package(wallbench) for plugin builds: a
# wallbench checkout (this file's parent folder) provides the headers of the
# family interface (harness/run/family.h and what it includes, micro/data.h,
# kernels/launch.h and launch.cuh) and wallbench_add_plugin(). Point CMake at
# it with -Dwallbench_DIR=<checkout>/cmake, or list(APPEND CMAKE_PREFIX_PATH
# <checkout>/cmake).
#
#   wallbench_add_plugin(<target> <sources: .c for the family, .cu for kernels>)
# builds lib<target>.so for `wallbench run --plugin`. The plugin is not
# linked against wallbench: the harness functions it calls (wb_fail,
# wb_point_init, wb_dev_alloc, ...) resolve from the wallbench binary when
# it loads the plugin, so the plugin must be built from the same checkout
# (the loader checks the interface version and struct sizes).
get_filename_component(WALLBENCH_SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(WALLBENCH_INCLUDE_DIRS "${WALLBENCH_SOURCE_DIR}")
set(wallbench_FOUND TRUE)
if(NOT TARGET CUDA::cudart)
  find_package(CUDAToolkit REQUIRED)
endif()

function(wallbench_add_plugin target)
  # The checkout this function was defined in, whichever folder calls it.
  get_filename_component(WALLBENCH_SOURCE_DIR "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/.." ABSOLUTE)
  add_library(${target} MODULE ${ARGN})
  target_include_directories(${target} PRIVATE "${WALLBENCH_SOURCE_DIR}" "${CMAKE_CURRENT_SOURCE_DIR}")
  target_compile_definitions(${target} PRIVATE _GNU_SOURCE)
  # The shared runtime: the plugin's launches must use the runtime (and
  # context) of the harness that owns the stream it is handed.
  target_link_libraries(${target} PRIVATE CUDA::cudart)
  set_target_properties(${target} PROPERTIES
    C_STANDARD 11 C_STANDARD_REQUIRED ON CXX_STANDARD 17 CUDA_STANDARD 17
    CUDA_RUNTIME_LIBRARY Shared POSITION_INDEPENDENT_CODE ON
    C_VISIBILITY_PRESET hidden CXX_VISIBILITY_PRESET hidden CUDA_VISIBILITY_PRESET hidden)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C>:-Wall -Wextra -Wno-missing-field-initializers>
    $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo --expt-relaxed-constexpr>)
endfunction()
