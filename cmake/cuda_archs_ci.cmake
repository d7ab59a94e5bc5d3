# cuda_archs_ci.cmake - included after wb_kernels: the kernels compiled for the
# GPUs the suite supports but CI has none of (sm_80, 86, 89, 100, 120; the
# build itself is sm_90), SASS only, nothing linked. CI builds it once
# (`make ci-archs`): a kernel that stops compiling on one of them fails CI.
set(WB_CI_ARCHS "80-real;86-real;89-real;100-real;120-real" CACHE STRING "architectures `make ci-archs` compiles for")
add_library(wb_kernels_archs OBJECT EXCLUDE_FROM_ALL ${WB_KERNEL_SOURCES})
set_target_properties(wb_kernels_archs PROPERTIES CUDA_ARCHITECTURES "${WB_CI_ARCHS}")
target_compile_options(wb_kernels_archs PRIVATE $<TARGET_PROPERTY:wb_kernels,COMPILE_OPTIONS>)
target_include_directories(wb_kernels_archs PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(wb_kernels_archs PRIVATE CUDA::cudart)
