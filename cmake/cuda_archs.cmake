# cuda_archs.cmake - included before project(): the CUDA architecture list
# (CMAKE_CUDA_ARCHITECTURES, set by make from GPU= or CUDA_ARCHS=), checked
# here so that a typo or an architecture this toolkit dropped stops with one
# sentence instead of a compiler test failing inside project().
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  # Otherwise the cache keeps nvcc 13's default (sm_75), and "native" fails
  # on the CI machine, which has no GPU.
  set(CMAKE_CUDA_ARCHITECTURES 90 CACHE STRING "CUDA architectures of the kernels (README: Your GPU)")
endif()

if(CMAKE_CUDA_COMPILER)
  set(WB_NVCC ${CMAKE_CUDA_COMPILER})
elseif(DEFINED ENV{CUDACXX})
  set(WB_NVCC $ENV{CUDACXX})
else()
  find_program(WB_NVCC NAMES nvcc PATHS /usr/local/cuda/bin NO_CACHE)
endif()
set(wb_toolkit_archs "")
if(WB_NVCC)
  execute_process(COMMAND ${WB_NVCC} --list-gpu-arch OUTPUT_VARIABLE wb_toolkit_archs ERROR_QUIET)
endif()
foreach(arch IN LISTS CMAKE_CUDA_ARCHITECTURES)
  if(arch MATCHES "^(native|all|all-major)$")
    continue()
  endif()
  if(NOT arch MATCHES "^([0-9]+)[af]?(-real|-virtual)?$")
    message(FATAL_ERROR "CUDA architecture '${arch}' is not one: write compute capabilities x 10 separated by ';', "
      "each optionally -real (SASS only) or -virtual (PTX only), e.g. CUDA_ARCHS=\"80;86;89;90;100;120\"")
  endif()
  set(n ${CMAKE_MATCH_1})
  if(wb_toolkit_archs AND NOT wb_toolkit_archs MATCHES "compute_${n}([^0-9]|$)")
    if(n LESS 75)
      message(FATAL_ERROR "sm_${n} (Volta and older) is not built by this CUDA toolkit (CUDA 13 builds sm_75 and newer): "
        "build on a CUDA 12.x toolkit, the last that builds sm_50 to sm_72")
    endif()
    string(REGEX MATCHALL "compute_[0-9]+" have "${wb_toolkit_archs}")
    string(REPLACE "compute_" "" have "${have}")
    message(FATAL_ERROR "sm_${n} is not an architecture this CUDA toolkit (${WB_NVCC}) builds: it builds ${have}")
  endif()
endforeach()
# The list the binary is built with, for the run-time check of harness/gpu/code.c
# (commas: a ';' would split the compile definition).
string(REPLACE ";" "," WB_CUDA_ARCH_LIST "${CMAKE_CUDA_ARCHITECTURES}")
