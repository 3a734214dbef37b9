#!/usr/bin/env bash
# `ringfuzz triage` on lavapipe against a known truth:
#   1. 1,000 artifacts written for tests/triage/data/buckets.fz (its comment
#      says which first bytes hit which bug), of five bug buckets and some
#      that reproduce nothing, under every artifact name ringfuzz and
#      libFuzzer write, plus a file that is no artifact and a telemetry log
#      with find lines for a few of them. The -json=1 output is read with
#      python3's json module and checked: the buckets, their counts and
#      members, each smallest reproducer and the first-seen provenance, the
#      location (the line of the planted bug, found in the target's source
#      here), and the CPU replay on the libFuzzer twin.
#   2. A short -keep_going campaign with -telemetry_out: every artifact it
#      wrote gets its first-seen epoch, slot and mutations from the log.
#
#   triage_buckets_twin_test.sh RINGFUZZ TWIN TARGET
set -uo pipefail
ringfuzz=$1 twin=$2 target=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -30 "$work/log"; exit 1; }

python3 - "$work/artifacts" "$work/truth.json" <<'PY' || fail "making artifacts"
import hashlib, json, os, random, sys
out, truth_path = sys.argv[1], sys.argv[2]
os.makedirs(out + "/nested")
rng = random.Random(7)
def tail(n):
    return bytes(rng.randrange(256) for _ in range(n))
makers = {
    "fz_crash(code=1)": (300, lambda: b"A" + tail(rng.randrange(1, 20))),
    "fz_crash(code=2)": (250, lambda: b"B" + tail(rng.randrange(1, 20))),
    "fz_crash(code=3)": (180, lambda: b"Cx" + tail(rng.randrange(0, 20))),
    "out-of-bounds": (150, lambda: b"D" + bytes([rng.randrange(4, 256)]) +
                      tail(rng.randrange(0, 20))),
    "input-overread": (60, lambda: b"E"),
    "none": (60, lambda: rng.choice([b"", b"Z" + tail(3), b"Cy" + tail(2),
                                     b"D\x01", b"A"])),
}
names = ["crash-{}", "timeout-{}", "oob-{}", "x-crash-{}", "nested/crash-{}",
         "leak-{}", "slow-unit-{}"]
truth = {"buckets": {}, "telemetry": {}}
n = 0
for category, (count, make) in makers.items():
    members = []
    for _ in range(count):
        data = make()
        path = os.path.join(out, names[n % len(names)].format(n))
        n += 1
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (1600000000 + n, 1600000000 + n))
        members.append(path)
    truth["buckets"][category] = sorted(members)
# Not an artifact by its name: triage must not replay it.
with open(os.path.join(out, "README"), "wb") as f:
    f.write(b"A1")
# Find lines for the last member of each bug bucket, as the engine writes
# them, between epoch lines; their time is before every mtime.
with open(os.path.join(out, "telemetry.jsonl"), "w") as log:
    for i, (category, members) in enumerate(truth["buckets"].items()):
        if category == "none":
            continue
        path = members[-1]
        sha1 = hashlib.sha1(open(path, "rb").read()).hexdigest()
        log.write(json.dumps({"epoch": i, "summary": "x"}) + "\n")
        log.write(json.dumps({"find": {
            "epoch": 100 + i, "slot": 7 + i, "parent": 3, "base_unit": "",
            "mutations": "MS: 1 ChangeBit-", "bug": category,
            "artifact": path, "sha1": sha1, "time": 1500000000 + i}}) + "\n")
        truth["telemetry"][category] = {"sha1": sha1, "epoch": 100 + i,
                                        "slot": 7 + i}
json.dump(truth, open(truth_path, "w"))
PY

start=$(date +%s)
"$ringfuzz" triage -target="$target" -twin="$twin" -json=1 \
  "$work/artifacts" >"$work/out.json" 2>"$work/log" ||
  fail "triage exited $?"
echo "triage of 1000 artifacts took $(( $(date +%s) - start )) s"

python3 - "$work/out.json" "$work/truth.json" "$target" <<'PY' || fail "JSON check"
import hashlib, json, os, re, sys
report = json.load(open(sys.argv[1]))
truth = json.load(open(sys.argv[2]))
source = open(sys.argv[3]).read().split("\n")
def line_of(pattern):
    hits = [i + 1 for i, l in enumerate(source) if re.search(pattern, l)]
    assert len(hits) == 1, (pattern, hits)
    return hits[0]
lines = {"fz_crash(code=1)": line_of(r"fz_crash\(1u\)"),
         "fz_crash(code=2)": line_of(r"fz_crash\(2u\)"),
         "fz_crash(code=3)": line_of(r"fz_crash\(3u\)"),
         "out-of-bounds": line_of(r"return table\[i\]"),
         "input-overread": line_of(r"fz_byte\(1u\) == 0u")}
errors = []
def check(cond, what):
    if not cond:
        errors.append(what)
total = sum(len(m) for m in truth["buckets"].values())
check(report["artifacts"] == total, f"artifacts {report['artifacts']} != {total}")
by_category = {}
for b in report["buckets"]:
    by_category[b.get("category", "none")] = b
check(sorted(by_category) == sorted(truth["buckets"]),
      f"buckets {sorted(by_category)} != {sorted(truth['buckets'])}")
check(report["buckets"][-1]["key"] == "does not reproduce",
      "the does-not-reproduce bucket is not last")
for category, members in truth["buckets"].items():
    b = by_category.get(category)
    if b is None:
        continue
    check(b["count"] == len(members), f"{category}: count {b['count']} != {len(members)}")
    check(sorted(b["members"]) == members, f"{category}: members differ")
    sizes = sorted((os.path.getsize(p), p) for p in members)
    check(b["smallest"]["path"] == sizes[0][1] and
          b["smallest"]["size"] == sizes[0][0],
          f"{category}: smallest {b['smallest']} != {sizes[0]}")
    if category == "none":
        check(not b["reproduces"] and not b["gpu"], "none: reproduces")
        check(b["cpu"] == "no", f"none: cpu {b['cpu']}")
        continue
    check(b["reproduces"] and b["gpu"], f"{category}: not reproduced")
    check(b["file"] == sys.argv[3], f"{category}: file {b['file']}")
    check(b["line"] == lines[category],
          f"{category}: line {b['line']} != {lines[category]}")
    check(b["key"] == f"{category} at {sys.argv[3]}:{lines[category]}",
          f"{category}: key {b['key']}")
    check(b["cpu"] == "yes", f"{category}: cpu {b['cpu']} ({b['cpu_detail']})")
    seen = truth["telemetry"][category]
    fs = b["first_seen"]
    # Artifacts with the same bytes share their find line.
    first_sha1 = hashlib.sha1(open(fs["path"], "rb").read()).hexdigest()
    check(fs["source"] == "telemetry" and first_sha1 == seen["sha1"] and
          fs["epoch"] == seen["epoch"] and fs["slot"] == seen["slot"] and
          fs["mutations"] == "MS: 1 ChangeBit-",
          f"{category}: first seen {fs} != {seen}")
none = by_category.get("none")
if none:
    first = min((os.path.getmtime(p), p) for p in truth["buckets"]["none"])
    check(none["first_seen"]["source"] == "mtime" and
          none["first_seen"]["path"] == first[1],
          f"none: first seen {none['first_seen']} != {first}")
if errors:
    print("\n".join(errors))
    sys.exit(1)
PY

# The table names every bucket, the last one the does-not-reproduce one.
"$ringfuzz" triage -target="$target" -twin="$twin" "$work/artifacts" \
  >"$work/table" 2>"$work/log" || fail "triage (table) exited $?"
grep -q "^#6 does not reproduce$" "$work/table" || fail "table: no bucket #6"
grep -q "^1000 artifacts, 6 buckets$" "$work/table" || fail "table: totals"

# 2. A campaign's artifacts, with its telemetry log.
mkdir -p "$work/seeds" "$work/fz"
printf 'A' >"$work/seeds/a"
printf 'C' >"$work/seeds/c"
"$ringfuzz" -target="$target" -runs=100000 -keep_going=1 -seed=1 -reproducible=1 \
  -artifact_prefix="$work/fz/" -telemetry_out="$work/fz/telemetry.jsonl" \
  "$work/corpus" "$work/seeds" >"$work/log" 2>&1
ls "$work/fz" | grep -q '^crash-' || fail "the campaign wrote no artifact"
"$ringfuzz" triage -target="$target" -cpu_replay=0 -json=1 "$work/fz" \
  >"$work/fz.json" 2>"$work/log" || fail "triage of the campaign exited $?"
python3 - "$work/fz.json" "$work/fz" <<'PY' || fail "campaign JSON check"
import json, os, sys
report = json.load(open(sys.argv[1]))
artifacts = [n for n in os.listdir(sys.argv[2]) if n.startswith("crash-")]
assert report["artifacts"] == len(artifacts), report["artifacts"]
assert sum(b["count"] for b in report["buckets"]) == len(artifacts)
for b in report["buckets"]:
    assert b["reproduces"], b["key"]
    fs = b["first_seen"]
    assert fs["source"] == "telemetry", fs
    assert fs["mutations"].startswith("MS: "), fs
    assert b["cpu"] == "skipped", b["cpu"]
print("campaign buckets:", [b["key"] for b in report["buckets"]])
PY
echo "PASS: 1000 artifacts in their known buckets; campaign provenance from telemetry"
