#!/usr/bin/env python3
"""Checks a -report directory with parsers independent of ringfuzz's code.

  report_check.py DIR [--text T]... [--min-rows N] [--bugs N]

index.html: parsed by html.parser; every element is closed in order (void
elements aside), nothing is loaded from elsewhere (no script, img, iframe,
object, embed or link element, no event handler attribute, no href or src
but the CSV's), there are four <svg class="chart"> with a polyline each,
the bug table has N rows (--bugs), and each --text T is part of the page's
text as a browser shows it (so an escaped string comes back whole).
plot_data.csv: parsed by the csv module; the header is ringfuzz's, every
row has 8 numbers, time and executions never go back, at most 2001 rows
and at least --min-rows.
Prints "ok" and exits 0, else the first problem and exits 1.
"""
import argparse
import csv
import html.parser
import os
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}
FORBIDDEN = {"script", "img", "iframe", "object", "embed", "link", "frame"}
HEADER = ["unix_time", "elapsed_s", "execs", "execs_per_sec", "cov", "ft",
          "corpus_size", "bugs"]


class Page(html.parser.HTMLParser):

  def __init__(self):
    super().__init__(convert_charrefs=True)
    self.stack, self.problems, self.text = [], [], []
    self.charts = self.polylines = self.bug_rows = 0
    self.in_bugs_body = False
    self.table = None

  def handle_starttag(self, tag, attrs):
    self._check(tag, attrs)
    if tag not in VOID:
      self.stack.append(tag)
    if tag == "table":
      self.table = dict(attrs).get("id")
    if tag == "tbody" and self.table == "bugs":
      self.in_bugs_body = True
    if tag == "tr" and self.in_bugs_body:
      self.bug_rows += 1

  def handle_startendtag(self, tag, attrs):
    self._check(tag, attrs)

  def _check(self, tag, attrs):
    attrs = dict(attrs)
    if tag in FORBIDDEN:
      self.problems.append(f"<{tag}> element")
    for name, value in attrs.items():
      if name.startswith("on"):
        self.problems.append(f"event handler {name} on <{tag}>")
      if name in ("src", "href") and value != "plot_data.csv":
        self.problems.append(f"{name}={value!r} on <{tag}>")
    if tag == "svg" and attrs.get("class") == "chart":
      self.charts += 1
    if tag == "polyline":
      self.polylines += 1

  def handle_endtag(self, tag):
    if tag in VOID:
      return
    if not self.stack or self.stack[-1] != tag:
      self.problems.append(
          f"</{tag}> closes <{self.stack[-1] if self.stack else 'nothing'}>")
      return
    self.stack.pop()
    if tag == "tbody":
      self.in_bugs_body = False

  def handle_data(self, data):
    self.text.append(data)


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("dir")
  parser.add_argument("--text", action="append", default=[])
  parser.add_argument("--min-rows", type=int, default=1)
  parser.add_argument("--bugs", type=int)
  args = parser.parse_args()

  with open(os.path.join(args.dir, "index.html"), encoding="utf-8") as f:
    source = f.read()
  if not source.startswith("<!DOCTYPE html>"):
    return fail("index.html does not start with <!DOCTYPE html>")
  page = Page()
  page.feed(source)
  page.close()
  if page.problems:
    return fail("index.html: " + page.problems[0])
  if page.stack:
    return fail(f"index.html: <{page.stack[-1]}> is never closed")
  if page.charts != 4 or page.polylines != 4:
    return fail(f"index.html: {page.charts} charts, {page.polylines} lines; "
                "expected 4 and 4")
  if args.bugs is not None and page.bug_rows != args.bugs:
    return fail(f"index.html: {page.bug_rows} bug rows, expected {args.bugs}")
  text = "".join(page.text)
  for wanted in args.text:
    if wanted not in text:
      return fail(f"index.html: the text {wanted!r} is not on the page")

  with open(os.path.join(args.dir, "plot_data.csv"), newline="") as f:
    rows = list(csv.reader(f))
  if not rows or rows[0] != HEADER:
    return fail(f"plot_data.csv: header {rows[:1]}, expected {HEADER}")
  last = None
  for n, row in enumerate(rows[1:], start=2):
    if len(row) != len(HEADER):
      return fail(f"plot_data.csv:{n}: {len(row)} fields")
    try:
      values = [int(row[0]), float(row[1])] + [int(v) for v in row[2:]]
    except ValueError:
      return fail(f"plot_data.csv:{n}: not numbers: {row}")
    if last and (values[1] < last[1] or values[2] < last[2]):
      return fail(f"plot_data.csv:{n}: time or executions went back")
    last = values
  if not args.min_rows <= len(rows) - 1 <= 2001:
    return fail(f"plot_data.csv: {len(rows) - 1} rows, expected "
                f"{args.min_rows}..2001")
  print("ok")
  return 0


def fail(message):
  print(f"FAIL: {message}")
  return 1


if __name__ == "__main__":
  sys.exit(main())
