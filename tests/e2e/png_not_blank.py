#!/usr/bin/env python3
"""Exits 0 iff the PNG file shows something: decodes it with zlib alone
(8-bit greyscale, RGB or RGBA, not interlaced, as Chromium writes its
screenshots) and asks for at least --min-colours distinct colours and at
least --min-ink of the pixels away from the background (the most common
colour). Prints what it measured.

  png_not_blank.py FILE [--min-colours N] [--min-ink FRACTION]
"""
import argparse
import collections
import struct
import sys
import zlib


def decode(path):
  with open(path, "rb") as f:
    data = f.read()
  if data[:8] != b"\x89PNG\r\n\x1a\n":
    raise ValueError("not a PNG file")
  pos, idat, header = 8, [], None
  while pos < len(data):
    length, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + length]
    pos += 12 + length
    if kind == b"IHDR":
      header = struct.unpack(">IIBBBBB", body)
    elif kind == b"IDAT":
      idat.append(body)
    elif kind == b"IEND":
      break
  width, height, depth, colour, _, _, interlace = header
  channels = {0: 1, 2: 3, 4: 2, 6: 4}.get(colour)
  if depth != 8 or channels is None or interlace:
    raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, "
                     f"interlace {interlace}")
  raw = zlib.decompress(b"".join(idat))
  stride = width * channels
  rows, previous = [], bytearray(stride)
  for y in range(height):
    kind = raw[y * (stride + 1)]
    line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
      left = line[i - channels] if i >= channels else 0
      up = previous[i]
      upper_left = previous[i - channels] if i >= channels else 0
      if kind == 1:
        line[i] = (line[i] + left) & 0xFF
      elif kind == 2:
        line[i] = (line[i] + up) & 0xFF
      elif kind == 3:
        line[i] = (line[i] + (left + up) // 2) & 0xFF
      elif kind == 4:
        p = left + up - upper_left
        pa, pb, pc = abs(p - left), abs(p - up), abs(p - upper_left)
        pred = left if pa <= pb and pa <= pc else up if pb <= pc else upper_left
        line[i] = (line[i] + pred) & 0xFF
    rows.append(bytes(line))
    previous = line
  return width, height, channels, rows


def main():
  parser = argparse.ArgumentParser()
  parser.add_argument("png")
  parser.add_argument("--min-colours", type=int, default=8)
  parser.add_argument("--min-ink", type=float, default=0.02)
  args = parser.parse_args()
  width, height, channels, rows = decode(args.png)
  counts = collections.Counter()
  for row in rows:
    for x in range(0, width * channels, channels):
      counts[row[x:x + channels]] += 1
  total = width * height
  ink = 1 - counts.most_common(1)[0][1] / total
  print(f"{width}x{height}, {len(counts)} colours, {ink:.1%} ink")
  if len(counts) < args.min_colours or ink < args.min_ink:
    print("FAIL: the screenshot is blank or nearly so")
    return 1
  return 0


if __name__ == "__main__":
  sys.exit(main())
