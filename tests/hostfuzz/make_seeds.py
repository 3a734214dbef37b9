#!/usr/bin/env python3
"""Writes the seed corpora of tests/hostfuzz from real buffer dumps.

    make_seeds.py DUMP_DIR CORPUS_DIR OUT_DIR

DUMP_DIR holds epoch-NNNNNN.control/.ring pairs that `ringfuzz
-dump_buffers=DUMP_DIR` wrote (docs/cli.md); CORPUS_DIR holds inputs of a
bundled target (corpus/tlv). Each seed is laid out as the harness reads it
(tests/hostfuzz/fuzz_input.h: Part() = u32le length + bytes, Rest() = the
remainder). The find queue and the compare log are not dumped; their seeds
are built from CORPUS_DIR's inputs in the wire layout (shaders/
ringfuzz_wire.h: RF_FIND_*, RF_OP_CMPLOG records).
"""
import hashlib
import os
import struct
import sys


def part(b):
    return struct.pack('<I', len(b)) + b


def write(out, name, data):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()), 'wb') as f:
        f.write(data)


def words(*ws):
    return b''.join(struct.pack('<I', w & 0xFFFFFFFF) for w in ws)


def main():
    dumps, corpus, out = sys.argv[1:4]
    epochs = sorted(f[:-len('.control')] for f in os.listdir(dumps)
                    if f.endswith('.control'))
    pick = [epochs[0], epochs[len(epochs) // 2], epochs[-1]]
    read = lambda e, ext: open(os.path.join(dumps, e + ext), 'rb').read()
    for i, e in enumerate(pick):
        control, ring = read(e, '.control'), read(e, '.ring')
        prev = pick[i - 1] if i > 0 else e
        pc, pr = read(prev, '.control'), read(prev, '.ring')
        write(out, 'wire_decode', part(control) + ring)
        write(out, 'dump_check', part(control) + ring)
        # flags, depth, width, done change, 2 window opcodes, launch words
        opts = bytes([i & 1, 4, 64, 0xFE, 2]) + words(8, 9) + words(
            256, 8, 64, 1024, 1024, 0, 2) + bytes([0x21]) + words(4, 0, 0, 0)
        write(out, 'ring_telemetry', part(opts) + part(control) + ring)
        write(out, 'json_export',
              part(bytes([4, 64, 0xFF, 1, 16])) + part(control) + ring)
        # flags: json, previous pair, sketch 4x256, window opcodes 8,9,10
        opts = bytes([1 | 2 | 4 | 8 if i else 0, 4]) + words(256) + bytes(
            [8, 9, 10])
        write(out, 'decode_command',
              part(opts) + part(control) + part(ring) + part(pc) + pr)
    inputs = [open(os.path.join(corpus, f), 'rb').read()
              for f in sorted(os.listdir(corpus))][:4]
    max_len = 64
    for i, data in enumerate(inputs):
        data = data[:max_len]
        body = data + bytes(max_len - len(data))
        kind = [1, 2, 5, 6][i % 4]
        entry = words(kind, i, 0, 8, len(data), 1, len(data), 3, i,
                      0xFFFFFF21)
        queue = entry + body + words(4, 1, 0, 8, len(data), 0, 0, 0, 0,
                                     0xFFFFFFFF) + body
        write(out, 'find_queue',
              bytes([max_len // 4 - 1]) + words(2) + bytes([4, 2]) + queue)
        log = b''
        for k in range(0, min(len(data), 8)):
            log += words(k, data[k], (data[k] + 1) & 0xFF)
        if len(data) >= 4:
            log += words(9, struct.unpack('<I', data[:4])[0], 0x46545a21)
        write(out, 'input_to_state', bytes([128]) + part(data) + log)


if __name__ == '__main__':
    main()
