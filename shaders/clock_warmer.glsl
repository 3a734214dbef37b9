#version 450
// The clock warmer (fuzz/gpu/clock_warmer.h): keeps every core of a GPU busy
// while the host builds the megakernel, so that the device's clock governor
// has raised the clock by the campaign's first round. An idle GPU runs at a
// fraction of its clock and needs a few hundred milliseconds of load to
// reach it; without this, the first rounds (and the finds they make) run
// several times slower.
//
// Contract: the dispatch ends within one round of the host writing a
// non-zero `stop`, or after `max_rounds` rounds, whichever comes first.
// Each workgroup reads `stop` once per round (lane 0, a volatile load) and
// all its invocations leave together, adding the rounds it ran to `rounds`.

layout(local_size_x = 64) in;

layout(push_constant) uniform Push {
  uint max_rounds;  // at least one round runs unless `stop` is already set
  uint round_steps; // dependent integer steps per round (the load)
} push;

layout(std430, set = 0, binding = 0) volatile coherent buffer Control {
  uint stop;    // written by the host
  uint rounds;  // rounds run, summed over the workgroups
  uint sink;    // keeps the arithmetic from being removed; never read
} ctrl;

shared uint s_stop;

void main() {
  uint x = gl_GlobalInvocationID.x * 2654435761u + 1u;
  uint r = 0u;
  for (; r < push.max_rounds; ++r) {
    if (gl_LocalInvocationIndex == 0u) s_stop = ctrl.stop;
    barrier();
    const bool stop = s_stop != 0u;
    barrier();
    if (stop) break;
    for (uint j = 0u; j < push.round_steps; ++j) x = x * 1664525u + 1013904223u;
  }
  if (gl_LocalInvocationIndex == 0u) atomicAdd(ctrl.rounds, r);
  if (x == 0u) ctrl.sink = r;
}
