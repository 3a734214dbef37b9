#!/usr/bin/env bash
# `ringfuzz ci` on lavapipe with tests/triage/data/buckets.fz, its SARIF log
# checked against SARIF 2.1.0's required structure and its JUnit report
# read with python3's XML parser:
#   1. a corpus input that hits a bug no known crash hits is a regression: exit 77, the
#      fuzzing step skipped, the bug a "new" SARIF result at the bug's line
#      (found in the target's source here) and a JUnit failure;
#   2. with every bug of the target among the known crashes, a fuzzing run
#      finds nothing new: exit 0, every SARIF result "unchanged", no JUnit
#      failure.
#
#   ci_mode_e2e_test.sh RINGFUZZ TARGET
set -uo pipefail
ringfuzz=$1 target=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -30 "$work/log"; exit 1; }

mkdir -p corpus known partial regress
printf 'A' >corpus/a
printf 'Cy' >corpus/c
printf 'A1' >known/crash-1
printf 'Bz' >known/crash-2
printf 'Cx' >known/crash-3
printf 'D\x09' >known/crash-4
printf 'E' >known/crash-5
cp known/crash-1 known/crash-3 partial/
cp corpus/* regress/
printf 'Bx' >regress/b

check_reports() {  # OUT_DIR EXPECT_NEW(0|1)
  python3 - "$1" "$2" "$target" <<'PY'
import json, re, sys
import xml.etree.ElementTree as ET
out, expect_new, target = sys.argv[1], sys.argv[2] == "1", sys.argv[3]
source = open(target).read().split("\n")
sarif = json.load(open(out + "/ringfuzz.sarif"))
assert sarif["version"] == "2.1.0", sarif.get("version")
assert "sarif-2.1.0" in sarif["$schema"], sarif.get("$schema")
assert isinstance(sarif["runs"], list) and len(sarif["runs"]) == 1
run = sarif["runs"][0]
driver = run["tool"]["driver"]
assert driver["name"]
rules = driver["rules"]
ids = [r["id"] for r in rules]
assert len(ids) == len(set(ids)), ids
assert {"fz_crash", "input-overread", "out-of-bounds", "timeout"} <= set(ids)
for r in rules:
    assert r["shortDescription"]["text"]
results = run["results"]
assert results, "no results"
states = set()
for res in results:
    assert res["ruleId"] in ids, res["ruleId"]
    assert ids[res["ruleIndex"]] == res["ruleId"]
    assert res["level"] in ("none", "note", "warning", "error")
    assert res["message"]["text"]
    assert res["baselineState"] in ("new", "unchanged", "updated", "absent")
    states.add(res["baselineState"])
    loc = res["locations"][0]["physicalLocation"]
    uri = loc["artifactLocation"]["uri"]
    assert uri.endswith("buckets.fz"), uri
    line = loc["region"]["startLine"]
    assert isinstance(line, int) and 1 <= line <= len(source), line
    # The line holds the planted bug the rule names.
    text = source[line - 1]
    code = re.match(r"fz_crash\(code=(\d+)\)", res["message"]["text"])
    if code:
        assert f"fz_crash({code.group(1)}u)" in text, (line, text)
    elif res["ruleId"] == "out-of-bounds":
        assert "table[i]" in text, (line, text)
    elif res["ruleId"] == "input-overread":
        assert "fz_byte(1u)" in text, (line, text)
assert ("new" in states) == expect_new, states
root = ET.parse(out + "/junit.xml").getroot()
assert root.tag == "testsuites", root.tag
suites = root.findall("testsuite")
assert len(suites) == 1
suite = suites[0]
cases = suite.findall("testcase")
failures = [c for c in cases if c.find("failure") is not None]
skipped = [c for c in cases if c.find("skipped") is not None]
assert int(suite.get("tests")) == len(cases)
assert int(suite.get("failures")) == len(failures)
assert int(suite.get("skipped")) == len(skipped)
for c in cases:
    assert c.get("classname") and c.get("name")
    float(c.get("time"))
assert bool(failures) == expect_new, [c.get("name") for c in failures]
names = {c.get("name"): c for c in cases}
for phase in ("known crashes", "corpus replay", "fuzzing"):
    assert phase in names, phase
if expect_new:
    assert names["fuzzing"].find("skipped") is not None, "fuzzing ran"
    assert names["corpus replay"].find("failure") is not None
print("reports ok:", len(results), "results,", len(cases), "test cases")
PY
}

"$ringfuzz" ci -target="$target" -out="$work/out1" -corpus=regress \
  -known_crashes=partial -cpu_replay=0 -runs=20000 -seed=1 \
  >"$work/summary" 2>"$work/log"
rc=$?
[ $rc -eq 77 ] || fail "a corpus regression: exit $rc, expected 77"
grep -q "^NEW \[corpus replay\] fz_crash(code=2)" "$work/summary" ||
  fail "the regression is not reported: $(cat "$work/summary")"
[ -z "$(ls "$work/out1/artifacts")" ] || fail "fuzzing ran after a regression"
check_reports "$work/out1" 1 || fail "reports of the regression run"

"$ringfuzz" ci -target="$target" -out="$work/out2" -corpus=corpus \
  -known_crashes=known -cpu_replay=0 -runs=20000 -seed=1 \
  >"$work/summary" 2>"$work/log"
rc=$?
[ $rc -eq 0 ] || fail "only known bugs: exit $rc, expected 0: $(cat "$work/summary")"
grep -q "^0 new bug(s)" "$work/summary" || fail "summary: $(cat "$work/summary")"
grep -q "^Done 20000 runs" "$work/log" || fail "the fuzzing step did not run"
check_reports "$work/out2" 0 || fail "reports of the known-only run"

# Bad command lines say what to pass.
"$ringfuzz" ci -target="$target" >"$work/summary" 2>"$work/log"
[ $? -eq 1 ] && grep -q "^ERROR: -out=DIR is required" "$work/log" ||
  fail "no -out: not refused"
"$ringfuzz" ci -target="$target" -out="$work/out3" -corpus="$work/nope" \
  >"$work/summary" 2>"$work/log"
[ $? -eq 1 ] && grep -q "does not exist" "$work/log" ||
  fail "a missing corpus: not refused"
"$ringfuzz" ci -target="$target" -target="$target" -out="$work/out4" \
  >"$work/summary" 2>"$work/log"
[ $? -eq 1 ] && grep -q "^ERROR: ringfuzz ci takes one -target" "$work/log" ||
  fail "two targets: not refused"
[ ! -e "$work/out4" ] || fail "two targets: -out was written anyway"
"$ringfuzz" triage -target="$target" -target="$target" known \
  >"$work/summary" 2>"$work/log"
[ $? -eq 1 ] && grep -q "^ERROR: ringfuzz triage takes one -target" "$work/log" ||
  fail "triage with two targets: not refused"
echo "PASS: ringfuzz ci fails on new bugs only; SARIF 2.1.0 and JUnit valid"
