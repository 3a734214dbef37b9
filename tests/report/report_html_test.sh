#!/usr/bin/env bash
# The -report writers' files read back by independent parsers: a made-up
# campaign (report_fixture) checked by report_check.py (python3's
# html.parser and csv modules): the page nests, loads nothing, escapes every
# string (they come back whole as the page's text), and the CSV is
# downsampled to at most 2001 rows that never go back in time.
#
#   report_html_test.sh FIXTURE CHECKER
set -uo pipefail
fixture=$1 checker=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
hostile="<script>alert(1)</script>&\"'</td>"

"$fixture" "$work/report" || { echo "FAIL: the fixture exited $?"; exit 1; }
"$checker" "$work/report" --min-rows 1000 --bugs 2 \
  --text="targets/$hostile.fz" --text="device $hostile" \
  --text="-dict=$hostile" --text="corpus/$hostile" \
  --text="parse$hostile t.fz:42" --text="out/crash-$hostile" \
  --text="mut$hostile" --text="finished, exit 77 (bug found)" ||
  exit 1
rows=$(($(wc -l <"$work/report/plot_data.csv") - 1))
# 3000 samples downsampled: the first, every second one kept, the latest.
[ "$rows" -le 2001 ] || { echo "FAIL: $rows rows"; exit 1; }
tail -1 "$work/report/plot_data.csv" | grep -q '^[0-9]*,2999.000,2999000,' ||
  { echo "FAIL: the latest sample is not the last row"; exit 1; }
echo "PASS: the report's HTML and CSV parse back ($rows rows)"
