// Branching mutation engine: rf_mutate calls the work kind's mutator of
// megakernel_mutate.glsl, one code path per mutator with byte loops. The
// host includes it after megakernel_mutate.glsl unless it builds the flat
// engine (megakernel_mutate_flat.glsl, MegakernelOptions::flat_mutation),
// which needs the input in registers (inputs of up to 256 bytes).

// Applies one mutation of the work kind to the loaded input (a havoc step
// for HAVOC, for DICT without a dictionary, and in a havoc-only build
// (RF_HAVOC_ONLY) for DICT, SPLICE and CMP); replays and calibrations leave
// it as is. Stacks are chains of calls (rf_run_slot). Sets rf_last_mutator
// (TRIM: RF_MUT_ERASE). Returns the length.
uint rf_mutate(uint opcode, uint len, uint partner) {
  rf_last_mutator = RF_MUT_NONE;
  if (opcode == RF_OP_REPLAY || opcode == RF_OP_CALIBRATE) return len;
#ifndef RF_HAVOC_ONLY
  rf_last_mutator = opcode == RF_OP_SPLICE ? RF_MUT_SPLICE : RF_MUT_DICT;
  if (opcode == RF_OP_SPLICE) return rf_mut_splice(len, partner);
  if (opcode == RF_OP_DICT && rf_pc.dict_count != 0u) return rf_mut_dict(len);
  if (opcode == RF_OP_CMP) return rf_mut_cmp(len);
#endif
  rf_steps += 1u;
  rf_last_mutator = RF_MUT_ERASE;
  return opcode == RF_OP_TRIM ? rf_mut_erase(len) : rf_havoc_step(len);
}
