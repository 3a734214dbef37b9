#!/usr/bin/env bash
# Compares ringfuzz's line coverage of a target with the CPU's.
#
#   compare_lines.sh REPORT LCOV TARGET_FILE EXPECTED
#
# REPORT   ringfuzz -coverage_report output: "<file>:<line> <0|1>" per line
#          that holds at least one instrumentation site (1 = covered).
# LCOV     llvm-cov export -format=lcov of the C++ twin (twincov_<name>) run
#          over the same inputs: "DA:<line>,<count>" per mapped line.
# EXPECTED lines that legitimately differ, one per line:
#            <line> rf=<0|1> cpu=<0|1|-> <reason>
#          ("-": the CPU build maps no code to the line); '#' comments.
#
# Only the lines of TARGET_FILE (matched by file name) that REPORT lists
# are compared: the line is covered on the CPU iff its count is > 0. Passes
# (prints "PASS: ...", exits 0) iff the lines that differ are exactly those
# of EXPECTED: an unexpected difference fails, and so does an expected one
# that no longer differs, so the list stays honest.
# The report must also list at least half of the lines the CPU maps: SPIR-V
# carries no line for declarations without code, braces and the like, but
# crediting every line a block carries lists 69-81% of them for the bundled
# targets; a report with far fewer has lost lines, and comparing the few it
# keeps would prove little.
set -uo pipefail
report=$1 lcov=$2 target=$3 expected=$4
name=$(basename "$target")

for f in "$report" "$lcov" "$target"; do
  [ -r "$f" ] || { echo "FAIL: cannot read $f"; exit 1; }
done
[ -r "$expected" ] || expected=/dev/null

awk -v name="$name" -v target="$target" '
  function base(path) { sub(/.*\//, "", path); return path }
  # pass 1: EXPECTED
  FILENAME == ARGV[1] {
    if ($0 ~ /^[ \t]*(#|$)/) next
    if ($1 !~ /^[0-9]+$/ || $2 !~ /^rf=[01]$/ || $3 !~ /^cpu=[01-]$/ || NF < 4) {
      printf "FAIL: %s:%d: expected \"<line> rf=<0|1> cpu=<0|1|-> <reason>\", got: %s\n",
             FILENAME, FNR, $0
      bad = 1; next
    }
    want[$1] = $2 " " $3
    next
  }
  # pass 2: the CPU profile (lcov), the record of the target file only
  FILENAME == ARGV[2] {
    if ($0 ~ /^SF:/) { in_target = (base(substr($0, 4)) == name); if (in_target) sf++; next }
    if ($0 == "end_of_record") { in_target = 0; next }
    if (in_target && $0 ~ /^DA:/) {
      split(substr($0, 4), f, ",")
      if (!(f[1] in cpu)) nda++
      cpu[f[1]] = (f[2] + 0 > 0) ? 1 : 0
    }
    next
  }
  # pass 3: the ringfuzz report
  {
    if (!match($0, /:[0-9]+ [01]$/)) {
      printf "FAIL: %s:%d: not \"<file>:<line> <0|1>\": %s\n", FILENAME, FNR, $0
      bad = 1; next
    }
    file = substr($0, 1, RSTART - 1)
    split(substr($0, RSTART + 1), f, " ")
    if (base(file) != name) { other++; next }
    if (f[1] in rf) { printf "FAIL: line %s listed twice in the report\n", f[1]; bad = 1 }
    rf[f[1]] = f[2]
    order[++n] = f[1]
  }
  END {
    if (bad) exit 1
    if (sf == 0) { printf "FAIL: the CPU profile has no record for %s\n", name; exit 1 }
    if (n == 0) {
      printf "FAIL: the ringfuzz report lists no line of %s (%d lines of other files)\n", name, other + 0
      exit 1
    }
    while ((getline src < target) > 0) text[++nsrc] = src
    if (n * 2 < nda) {
      printf "FAIL: the report lists %d of the %d lines of %s the CPU maps, under half: lines that hold code are missing, e.g.\n", n, nda, name
      shown = 0
      for (l = 1; l <= nsrc && shown < 8; l++) {
        if ((l in cpu) && !(l in rf) && text[l] ~ /;/) { printf "  %d: %s\n", l, text[l]; shown++ }
      }
      exit 1
    }
    covered = 0; fails = 0; listed = 0
    for (i = 1; i <= n; i++) {
      l = order[i]
      c = (l in cpu) ? cpu[l] : "-"
      covered += (rf[l] == 1)
      got = "rf=" rf[l] " cpu=" c
      if (rf[l] == c "") {
        if (l in want) {
          printf "FAIL: line %s is listed in the expected differences (%s) but both sides now say %s:\n  %s\n", l, want[l], c, text[l]
          fails++
        }
        continue
      }
      if (!(l in want)) {
        printf "FAIL: line %s differs: ringfuzz says %s, the CPU says %s:\n  %d: %s\n",
               l, rf[l] == 1 ? "covered" : "not covered",
               c == "-" ? "no code there" : (c == 1 ? "covered" : "not covered"), l, text[l]
        fails++
      } else if (want[l] != got) {
        printf "FAIL: line %s differs as %s, the expected differences say %s:\n  %s\n", l, got, want[l], text[l]
        fails++
      } else {
        listed++
      }
      seen_diff[l] = 1
    }
    for (l in want) if (!(l in rf)) {
      printf "FAIL: line %s is listed in the expected differences but the report has no site there\n", l
      fails++
    }
    if (fails) { printf "%d line(s) failed of %d compared\n", fails, n; exit 1 }
    printf "PASS: %d lines of %s compared (%d covered), %d expected difference(s)\n", n, name, covered, listed
  }
' "$expected" "$lcov" "$report"
