# GPU executor: megakernel assembly, SPIR-V instrumentation, Vulkan executor.
add_library(ringfuzz_gpu STATIC
  ${CMAKE_SOURCE_DIR}/fuzz/clock_warmer.cc
  ${CMAKE_SOURCE_DIR}/fuzz/colorization.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_build_notice.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_cfg.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_instrument.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_static_edges.cc
  ${CMAKE_SOURCE_DIR}/fuzz/spirv_inst.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_megakernel.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_executor.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_executor_overlap.cc
  ${CMAKE_SOURCE_DIR}/fuzz/gpu_executor_features.cc
  ${CMAKE_SOURCE_DIR}/fuzz/input_to_state.cc
  ${CMAKE_SOURCE_DIR}/fuzz/lavapipe_env.cc
  ${CMAKE_SOURCE_DIR}/fuzz/length_to_state.cc
  ${CMAKE_SOURCE_DIR}/fuzz/parallel_for.cc
  ${CMAKE_SOURCE_DIR}/fuzz/ring_slots.cc
  ${CMAKE_SOURCE_DIR}/fuzz/target_diagnostics.cc
  ${CMAKE_SOURCE_DIR}/fuzz/target_limits.cc)
target_include_directories(ringfuzz_gpu PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(ringfuzz_gpu PUBLIC ringfuzz_runtime ringfuzz_shaders
  ringfuzz_file_read ringfuzz_find_decode ringfuzz_device_clock_fit
  SPIRV-Headers::SPIRV-Headers absl::status absl::statusor absl::strings
  absl::flat_hash_map absl::flat_hash_set
  absl::str_format absl::span absl::synchronization absl::time Threads::Threads)
