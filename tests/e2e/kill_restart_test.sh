#!/usr/bin/env bash
# Kill -9 and restart (issue 13, "Nothing found is ever lost"): runs
# ringfuzz on lavapipe on one corpus directory, kills it with SIGKILL at
# KILLS random points (0.2-3 s after the start, so start-up, seed loading
# and fuzzing are all hit), restarts it on the same directory each time,
# and checks after every kill that
#   1. the corpus holds only inputs named by the SHA-1 of their content,
#      and writers' temporaries (.tmp.*);
#   2. every NEW line the killed run printed is a file on disk (an input is
#      written before its NEW line: the corpus grew by at least as many
#      files as the run printed NEW lines);
#   3. a restart that gets as far as INITED reports cov: and ft: no lower
#      than the highest that any killed run before it printed, and has
#      recovered or removed the temporaries that were there before it;
# and finally that a clean run leaves no temporary at all.
#
#   kill_restart_test.sh RINGFUZZ TARGET_FILE SEED_DIR [KILLS] [SEED]
set -uo pipefail
ringfuzz=$1 target=$2 seeds=$3 kills=${4:-20}
RANDOM=${5:-13}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
corpus=$work/corpus
mkdir -p "$corpus" "$work/artifacts"
cp "$seeds"/* "$corpus/"

# To stderr too: count_inputs runs in a command substitution.
fail() {
  {
    echo "FAIL: $*"
    [ -f "$work/log" ] && { echo "--- last log"; tail -20 "$work/log"; }
  } >&2
  exit 1
}

# Prints the number of files in the corpus named by a SHA-1, after checking
# that each is named by the SHA-1 of its content and that everything else
# is a temporary.
count_inputs() {
  local n=0 f name
  for f in "$corpus"/* "$corpus"/.[!.]*; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    case "$name" in
      .tmp.*) continue ;;
    esac
    [[ "$name" =~ ^[0-9a-f]{40}$ ]] || fail "unexpected file '$name' in the corpus"
    [ "$(sha1sum "$f" | cut -d' ' -f1)" = "$name" ] ||
      fail "corpus file $name is not named by the SHA-1 of its content"
    n=$((n + 1))
  done
  echo "$n"
}

temporaries() { ls -A "$corpus" | grep '^\.tmp\.' || true; }

# The highest value of `key:` on status lines of a log (0 if none).
highest() { grep -oE "$1: [0-9]+" "$work/log" | awk '{ if ($2 > m) m = $2 } END { print m + 0 }'; }

# Runs ringfuzz with seed $1 and the flags after it; `run ... &` puts
# ringfuzz itself in the background ($! is its pid: exec).
run() {
  exec "$ringfuzz" -target="$target" -device=cpu -seed="$1" -keep_going=1 \
    -artifact_prefix="$work/artifacts/" "${@:2}" "$corpus" >"$work/log" 2>&1
}

need_cov=0 need_ft=0 inited_runs=0
for ((k = 1; k <= kills; k++)); do
  before=$(count_inputs) || exit 1
  tmp_before=$(temporaries)
  delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.2f", 0.2 + 2.8 * r / 32767 }')
  (run "$k" -max_total_time=60) &
  pid=$!
  # Even kills count their delay from INITED (when the machine is slow,
  # start-up alone can take longer than 3 s): fuzzing and saving get hit.
  if [ $((k % 2)) -eq 0 ]; then
    for ((w = 0; w < 600; w++)); do
      grep -q INITED "$work/log" 2>/dev/null && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
  fi
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  after=$(count_inputs) || exit 1
  new_lines=$(grep -cE '^#[0-9]+[[:space:]]+NEW' "$work/log")
  [ $((after - before)) -ge "$new_lines" ] ||
    fail "kill $k (after ${delay}s): $new_lines NEW lines but only $((after - before)) new files"
  if grep -q "INITED" "$work/log"; then
    inited_runs=$((inited_runs + 1))
    cov=$(grep -m1 INITED "$work/log" | grep -oE 'cov: [0-9]+' | cut -d' ' -f2)
    ft=$(grep -m1 INITED "$work/log" | grep -oE 'ft: [0-9]+' | cut -d' ' -f2)
    [ "${cov:-0}" -ge "$need_cov" ] && [ "${ft:-0}" -ge "$need_ft" ] ||
      fail "kill $k: restarted at cov: $cov ft: $ft, below the cov: $need_cov ft: $need_ft printed before the kill"
    for t in $tmp_before; do
      [ ! -e "$corpus/$t" ] || fail "kill $k: the start left the temporary $t"
    done
  fi
  c=$(highest cov) f=$(highest ft)
  [ "$c" -gt "$need_cov" ] && need_cov=$c
  [ "$f" -gt "$need_ft" ] && need_ft=$f
  echo "kill $k after ${delay}s: inputs $before -> $after, NEW lines $new_lines, highest cov: $need_cov ft: $need_ft, temporaries $(temporaries | wc -l)"
done

# A clean run: recovers what the last kill left, reaches at least the
# coverage printed before, and leaves no temporary.
(run 99 -runs=1)
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "the clean run exited $rc"
cov=$(grep -m1 INITED "$work/log" | grep -oE 'cov: [0-9]+' | cut -d' ' -f2)
ft=$(grep -m1 INITED "$work/log" | grep -oE 'ft: [0-9]+' | cut -d' ' -f2)
[ -n "$cov" ] || fail "the clean run printed no INITED line"
[ "$cov" -ge "$need_cov" ] && [ "$ft" -ge "$need_ft" ] ||
  fail "the clean run started at cov: $cov ft: $ft, below cov: $need_cov ft: $need_ft"
count_inputs >/dev/null || exit 1
[ -z "$(temporaries)" ] || fail "temporaries left after a clean run: $(temporaries)"
[ "$inited_runs" -gt 0 ] || fail "no killed run got as far as INITED; nothing was checked"
echo "PASS: $kills kills ($inited_runs after INITED), clean restart at cov: $cov ft: $ft (highest before: cov: $need_cov ft: $need_ft), no partial file, no lost input"
