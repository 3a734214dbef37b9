#!/bin/bash
# A full disk (ENOSPC) and a read-only corpus directory (EROFS), on a small
# tmpfs: the campaign goes on, says so once with the path, and every input
# it reported NEW is kept, in the corpus directory or in the fallback
# directory ($TMPDIR/ringfuzz-unsaved-<pid>). Needs to mount a tmpfs (root);
# exits 77 (skipped) where it cannot.
#
# Usage: disk_faults_test.sh RINGFUZZ TARGET.fz SEED_DIR
set -u
rf=$1 target=$2 seeds=$3
work=$(mktemp -d)
mnt=$work/mnt
mkdir -p "$mnt" "$work/tmp"
cleanup() { umount "$mnt" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; tail -20 "$work/log" 2>/dev/null; exit 1; }
if ! mount -t tmpfs -o size=16k tmpfs "$mnt" 2>"$work/mount.err"; then
  echo "SKIP: cannot mount a tmpfs: $(cat "$work/mount.err")"
  exit 77
fi

check_kept() {  # corpus dir, seed count, log
  local dir=$1 seed_files=$2 log=$3
  local news fallback unsaved in_dir pid
  news=$(grep -cE "	(NEW|REDUCE) " "$log")  # each has its file
  pid=$(grep -o "ringfuzz-unsaved-[0-9]*" "$log" | head -1)
  fallback=0
  [ -n "$pid" ] && fallback=$(ls "$work/tmp/$pid" 2>/dev/null | wc -l)
  unsaved=$(grep -c "^UNSAVED-INPUT " "$log")
  in_dir=$(( $(ls "$dir" | wc -l) - seed_files ))
  [ "$news" -gt 0 ] || fail "no NEW lines: nothing tested"
  [ $((in_dir + fallback + unsaved)) -eq "$news" ] ||
    fail "$news NEW lines, but $in_dir in the corpus, $fallback in the fallback, $unsaved printed"
  for f in "$dir"/* "$work/tmp/$pid"/*; do
    [ -f "$f" ] || continue
    case $(basename "$f") in seed*) continue ;; esac
    [ "$(sha1sum <"$f" | cut -c1-40)" = "$(basename "$f")" ] ||
      fail "$f is not named by its SHA-1"
  done
  echo "$news NEW: $in_dir in the corpus, $fallback in the fallback, $unsaved printed"
}

# Fuzzes the corpus on the tmpfs. The run may end on the target's bug
# (exit 77) before -runs: every input it reported NEW must be kept either
# way, and a bug's report is written first.
run_campaign() {  # fault name
  (cd "$work" && TMPDIR=$work/tmp "$rf" -target="$target" -device=cpu \
    -runs=400000 -seed=3 "$mnt/corpus" >"$work/log" 2>&1)
  local rc=$?
  [ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] || fail "$1 run exited $rc"
}

# ENOSPC: the tmpfs fills up after a few inputs.
mkdir -p "$mnt/corpus"
cp "$seeds/$(ls "$seeds" | head -1)" "$mnt/corpus/seed0"
run_campaign ENOSPC
grep -q "No space left on device" "$work/log" || fail "no ENOSPC reported"
[ "$(grep -c "WARNING: a new input could not be saved" "$work/log")" -eq 1 ] ||
  fail "the failure is not reported exactly once"
check_kept "$mnt/corpus" 1 "$work/log"

# EROFS: the corpus directory is read-only from the start of fuzzing.
rm -rf "$mnt/corpus" "$work/tmp"/* && mkdir -p "$mnt/corpus"
cp "$seeds/$(ls "$seeds" | head -1)" "$mnt/corpus/seed0"
mount -o remount,ro "$mnt" || fail "cannot remount read-only"
run_campaign EROFS
grep -q "Read-only file system" "$work/log" || fail "no EROFS reported"
check_kept "$mnt/corpus" 1 "$work/log"
echo "PASS: disk faults"
