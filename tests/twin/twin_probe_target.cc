// The probe target of twin_runtime_test, compiled as a target is: only the
// dialect header, so its loops carry the twin's loop hooks. Input byte 0
// says what to do; byte 1 (if any) is a count n:
//   'r' read every byte; 'o' read byte len (overread); 'c' fz_crash(0x1234);
//   'b' fz_crash(7) then fz_crash(8); 'h' a loop that never ends;
//   'f' a for loop of n iterations; 'w' a while loop of n iterations;
//   'd' a do-while loop of n iterations (at least 1).
#include "shaders/ringfuzz.h"

uint probe_seen_len = 0u;  // what the last execution saw
uint probe_seen_sum = 0u;

void fz_target(uint len) {
  probe_seen_len = len;
  probe_seen_sum = 0u;
  if (len == 0u) return;
  const uint n = len > 1u ? fz_byte(1u) : 0u;
  switch (fz_byte(0u)) {
    case 'r':
      for (uint i = 0u; i < len; ++i) probe_seen_sum += fz_byte(i);
      break;
    case 'o':
      probe_seen_sum = fz_byte(len) + 1000u;
      break;
    case 'c':
      fz_crash(0x1234u);
      break;
    case 'b':
      fz_crash(7u);
      fz_crash(8u);
      break;
    case 'h': {
      // Odd forever: without the loop hook clang -O2 deletes this loop (a
      // side-effect-free loop may be assumed to end) and returns at once.
      uint x = n | 1u;
      while (x != 0u) x = (x * 3u) | 1u;
      probe_seen_sum = x;
      break;
    }
    case 'f':
      for (uint i = 0u; i < n; ++i) probe_seen_sum += 1u;
      break;
    case 'w': {
      uint i = 0u;
      while (i < n) ++i;
      probe_seen_sum = i;
      break;
    }
    case 'd': {
      uint i = 0u;
      do {
        ++i;
      } while (i < n);
      probe_seen_sum = i;
      break;
    }
  }
}
