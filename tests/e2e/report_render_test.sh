#!/usr/bin/env bash
# -report on a real campaign: a <name>_fuzzer fuzzes for a few seconds on
# lavapipe with -report=DIR; the page and the CSV parse back
# (report_check.py) and the page renders in headless Chromium to a
# screenshot that is not blank (png_not_blank.py). Without Chromium the
# test is skipped (exit 77) after the parse checks. With
# RINGFUZZ_REPORT_SCREENSHOT=FILE the screenshot is kept there.
#
#   report_render_test.sh FUZZER SEED_CORPUS CHECKER PNG_CHECKER
set -uo pipefail
fuzzer=$1 seeds=$2 checker=$3 png_checker=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -f "$work/log" ] && tail -30 "$work/log"; exit 1; }

cp -r "$seeds" "$work/corpus"
"$fuzzer" -max_total_time=12 -seed=1 -keep_going=1 -artifact_prefix="$work/" \
  -report="$work/report" "$work/corpus" >"$work/log" 2>&1
rc=$?
case $rc in 0 | 77) ;; *) fail "fuzzing exited $rc" ;; esac
grep -q "WARNING: -report" "$work/log" && fail "the report warned"
"$checker" "$work/report" --min-rows 5 --text="finished, exit $rc" \
  --text="-report=$work/report" || fail "the report does not parse"

chrome=$(command -v chromium || command -v chromium-browser ||
  command -v google-chrome || true)
if [ -z "$chrome" ]; then
  echo "SKIP: chromium is not installed (tools/setup installs it)"
  exit 77
fi
# The page must render with the network off: it loads nothing.
timeout 120 "$chrome" --headless --no-sandbox --disable-gpu \
  --no-first-run --disable-extensions --proxy-server=127.0.0.1:9 \
  --hide-scrollbars --screenshot="$work/page.png" --window-size=1200,1600 \
  "file://$work/report/index.html" >"$work/chrome.log" 2>&1
[ -s "$work/page.png" ] || { cat "$work/chrome.log"; fail "no screenshot"; }
"$png_checker" "$work/page.png" --min-colours 16 --min-ink 0.05 ||
  fail "the rendered page is blank"
if [ -n "${RINGFUZZ_REPORT_SCREENSHOT:-}" ]; then
  cp "$work/page.png" "$RINGFUZZ_REPORT_SCREENSHOT"
fi
echo "PASS: the report of a campaign parses and renders"
