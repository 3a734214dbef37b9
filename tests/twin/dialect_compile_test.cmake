# cmake -DROOT=<source dir> -DOUT=<scratch dir> -DGLSLANG=<glslangValidator>
#       -P dialect_compile_test.cmake
# Passes iff every bundled target (shaders/targets/*.fz) and the example
# target of docs/dialect.md (between the dialect-example markers) compile as
# GLSL (glslangValidator -V --target-env vulkan1.2, inside a minimal compute
# shader that defines fz_byte and fz_crash like the megakernel prelude), and
# the example also compiles as C++ through tools/ringfuzz-twin.
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

file(READ "${ROOT}/docs/dialect.md" doc)
string(REGEX MATCH "<!-- dialect-example: begin -->\n```c\n(.*)\n```\n<!-- dialect-example: end -->"
       found "${doc}")
if(NOT found)
  message(FATAL_ERROR "docs/dialect.md has no example between the "
                      "dialect-example markers")
endif()
file(WRITE "${OUT}/dialect_example.fz" "${CMAKE_MATCH_1}\n")

file(GLOB targets "${ROOT}/shaders/targets/*.fz")
list(APPEND targets "${OUT}/dialect_example.fz")
foreach(target ${targets})
  get_filename_component(name "${target}" NAME_WE)
  get_filename_component(dir "${target}" DIRECTORY)
  get_filename_component(file "${target}" NAME)
  file(WRITE "${OUT}/${name}.comp" "#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 1) in;
layout(std430, binding = 0) readonly buffer Input { uint in_len; uint in_words[]; };
layout(std430, binding = 1) buffer Result { uint res_kind; uint res_code; };
uint stub_len;
void stub_report(uint kind, uint code) {
  if (res_kind == 0u) { res_kind = kind; res_code = code; }
}
uint fz_byte(uint i) {
  if (i >= stub_len) { stub_report(3u, i); return 0u; }
  return (in_words[i >> 2u] >> ((i & 3u) * 8u)) & 0xFFu;
}
void fz_crash(uint code) { stub_report(2u, code); }
#include \"ringfuzz.h\"
#include \"${file}\"
void main() { stub_len = in_len; fz_target(stub_len); }
")
  execute_process(COMMAND ${GLSLANG} -V --target-env vulkan1.2
                          -I${ROOT}/shaders -I${dir} -o ${OUT}/${name}.spv
                          ${OUT}/${name}.comp
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${target} does not compile as GLSL:\n${out}\n${err}")
  endif()
endforeach()

execute_process(COMMAND ${ROOT}/tools/ringfuzz-twin ${OUT}/dialect_example.fz
                        -o ${OUT}/twin_dialect_example
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the docs/dialect.md example does not compile as C++:\n${out}\n${err}")
endif()
