#!/bin/bash -eu
# Builds the <name>_fuzzer binaries (tools/fuzzer) into $OUT with a seed
# corpus each. They are ringfuzz itself with a target built in: the fuzzing
# engine is ringfuzz's, not libFuzzer's, so $LIB_FUZZING_ENGINE and the
# sanitizer flags of $CXXFLAGS are not used (the target runs in the Vulkan
# driver, where they do not apply).
cmake -S "$SRC/ringfuzz" -B build -DCMAKE_CXX_COMPILER="$CXX" \
  -DCMAKE_CXX_FLAGS="" -DCMAKE_BUILD_TYPE=RelWithDebInfo
targets=()
for fz in "$SRC"/ringfuzz/shaders/targets/*.fz; do
  targets+=("$(basename "$fz" .fz)_fuzzer")
done
cmake --build build -j"$(nproc)" --target "${targets[@]}"
for fuzzer in "${targets[@]}"; do
  name=${fuzzer%_fuzzer}
  cp "build/tools/$fuzzer" "$OUT/"
  # Its libFuzzer twin, which it runs as -twin (timeouts in seconds); the
  # .twin extension keeps it off ClusterFuzzLite's list of targets.
  if [ -x "build/tools/$fuzzer.twin" ]; then
    cp "build/tools/$fuzzer.twin" "$OUT/"
  fi
  if [ -d "$SRC/ringfuzz/corpus/$name" ]; then
    (cd "$SRC/ringfuzz/corpus/$name" && zip -q -r "$OUT/${fuzzer}_seed_corpus.zip" .)
  fi
done
