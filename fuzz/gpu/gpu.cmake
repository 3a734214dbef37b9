# GPU executor: megakernel assembly, SPIR-V instrumentation, Vulkan executor.
add_library(ringfuzz_gpu STATIC
  ${CMAKE_CURRENT_LIST_DIR}/cache_home.cc
  ${CMAKE_CURRENT_LIST_DIR}/clock_warmer.cc
  ${CMAKE_CURRENT_LIST_DIR}/colorization.cc
  ${CMAKE_CURRENT_LIST_DIR}/compare_log.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_build_notice.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_cfg.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_instrument.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_static_edges.cc
  ${CMAKE_CURRENT_LIST_DIR}/spirv_inst.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_megakernel.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_executor.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_executor_overlap.cc
  ${CMAKE_CURRENT_LIST_DIR}/escape_to_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/gpu_executor_features.cc
  ${CMAKE_CURRENT_LIST_DIR}/input_to_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/lavapipe_env.cc
  ${CMAKE_CURRENT_LIST_DIR}/length_to_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/linear_to_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/repeat_trials.cc
  ${CMAKE_CURRENT_LIST_DIR}/text_to_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/parallel_for.cc
  ${CMAKE_CURRENT_LIST_DIR}/ring_slots.cc
  ${CMAKE_CURRENT_LIST_DIR}/seen_clears.cc
  ${CMAKE_CURRENT_LIST_DIR}/short_circuit.cc
  ${CMAKE_CURRENT_LIST_DIR}/speculative_slots.cc
  ${CMAKE_CURRENT_LIST_DIR}/spelled_runs.cc
  ${CMAKE_CURRENT_LIST_DIR}/spirv_cache.cc
  ${CMAKE_CURRENT_LIST_DIR}/string_to_state.cc
  ${CMAKE_CURRENT_LIST_DIR}/target_diagnostics.cc
  ${CMAKE_CURRENT_LIST_DIR}/target_limits.cc
  ${CMAKE_CURRENT_LIST_DIR}/mutant_budget.cc
  ${CMAKE_CURRENT_LIST_DIR}/trial_queue.cc
  ${CMAKE_CURRENT_LIST_DIR}/varint_to_state.cc)
target_include_directories(ringfuzz_gpu PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(ringfuzz_gpu PUBLIC ringfuzz_runtime ringfuzz_shaders
  ringfuzz_file_read ringfuzz_corpus ringfuzz_find_decode ringfuzz_device_clock_fit
  SPIRV-Headers::SPIRV-Headers absl::status absl::statusor absl::strings
  absl::flat_hash_map absl::flat_hash_set
  absl::str_format absl::span absl::synchronization absl::time Threads::Threads)
