#!/usr/bin/env python3
"""Checks `ringfuzz telemetry decode -json` against a second decoder.

The second decoder is this file: it reads the control and ring dumps that
-dump_buffers wrote straight from the wire protocol's page
(the "Control buffer", "Ring slot", "Decoding", "Derived views" and
count-min sketch paragraphs of wire-protocol.md), shares no code with
telemetry/, and parses ringfuzz's JSON with Python's json module in a strict
mode (duplicate keys, NaN and Infinity are errors). For every pair of
consecutive epoch dumps it runs

    ringfuzz telemetry decode -control=N.control -ring=N.ring
        -previous_control=M.control -previous_ring=M.ring
        -window_opcodes=8,9,10,11 -sketch=4x256 -json

and compares every field it prints with what the page says it must be.
A campaign's dumps end their epochs with every slot DONE, so the last
epoch's dumps are also rewritten 25 times with random statuses, opcodes, tenants, tickets, classes and control counters, and
each rewrite is compared the same way. Every line of the -telemetry_out log
is parsed strictly too, and each epoch line's runtime counters are
compared with that epoch's dumps.

Usage: spec_decode_check.py RINGFUZZ DUMP_DIR TELEMETRY_JSONL
Prints "SPEC OK: ..." and exits 0, or names the first difference and exits 1.
"""

import json
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

STATUS_NAMES = ["empty", "published", "claimed", "done", "wait_io", "yield",
                "requeue", "fault"]
ACTIVE = {"published", "claimed", "wait_io", "yield", "requeue"}
WINDOW_OPCODES = [8, 9, 10, 11]
SKETCH_DEPTH, SKETCH_WIDTH = 3, 4  # narrow: estimates depend on the hash
MASK64 = (1 << 64) - 1


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def strict_json(text, what):
    def no_duplicates(pairs):
        keys = [k for k, _ in pairs]
        if len(keys) != len(set(keys)):
            fail(f"{what}: duplicate key in {keys}")
        return dict(pairs)

    def no_constant(name):
        fail(f"{what}: {name} is not JSON")

    try:
        return json.loads(text, object_pairs_hook=no_duplicates,
                          parse_constant=no_constant)
    except json.JSONDecodeError as e:
        fail(f"{what}: not JSON ({e})")


def words(path):
    data = open(path, "rb").read()
    if len(data) % 4:
        fail(f"{path}: {len(data)} bytes, not whole words")
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def status_name(raw):
    return STATUS_NAMES[raw] if raw < len(STATUS_NAMES) else f"unknown({raw})"


def decode_control(c):
    """ControlSnapshot, by the page's word table."""
    return {
        "shutdown": c[0] != 0,
        "done_count": c[1],
        "epoch": c[128],
        "metrics": [[op, c[96 + op]] for op in range(32) if c[96 + op]],
        "tenant_fairness": c[64:96],
        "priority_fairness": c[136:141],
    }


def decode_ring(r):
    """RingSlotSnapshots: 16 words per slot."""
    slots = []
    for i in range(len(r) // 16):
        w = r[16 * i:16 * i + 16]
        slots.append({"slot": i, "raw": w[0], "status": status_name(w[0]),
                      "opcode": w[1], "tenant": w[2], "args": w[4:16]})
    return slots


def occupancy(slots):
    occ = {name: 0 for name in STATUS_NAMES}
    occ["unknown"] = 0
    for s in slots:
        occ[s["status"] if s["raw"] < 8 else "unknown"] += 1
    occ["total_slots"] = len(slots)
    occ["queue_depth"] = sum(occ[k] for k in (
        "published", "claimed", "wait_io", "yield", "requeue", "fault",
        "unknown"))
    return occ


def runtime_counters(control, occ):
    total, empty, depth = occ["total_slots"], occ["empty"], occ["queue_depth"]
    nonzero = [v for v in control["tenant_fairness"] if v]
    return {
        "total_slots": total,
        "queue_depth": depth,
        "gpu_idle_slots": empty,
        "gpu_idle_ppm": empty * 1000000 // total if total else 0,
        "frontier_density_bps": depth * 10000 // total if total else 0,
        "occupancy_proxy_bps": (total - empty) * 10000 // total if total else 0,
        "drained_slots": control["done_count"],
        "unreclaimed_done_slots": occ["done"],
        "tenant_fairness_total": sum(control["tenant_fairness"]),
        "tenant_fairness_skew": max(nonzero) - min(nonzero) if nonzero else 0,
        "priority_fairness_total": sum(control["priority_fairness"]),
        "requeue_slots": occ["requeue"],
        "fault_slots": occ["fault"],
    }


def windows(slots):
    groups = {}
    for s in slots:
        if s["opcode"] not in WINDOW_OPCODES:
            continue
        key = (s["args"][0], s["opcode"])
        w = groups.setdefault(key, {
            "ticket": key[0], "tenant": s["tenant"], "opcode": key[1],
            "required_slots": 0, "lookahead_slots": 0, **{
                n: 0 for n in STATUS_NAMES[1:]}})
        if s["args"][1] == 0:
            w["required_slots"] += 1
        elif s["args"][1] == 1:
            w["lookahead_slots"] += 1
        if 1 <= s["raw"] <= 7:
            w[s["status"]] += 1
    out = []
    for key in sorted(groups):
        w = groups[key]
        w["active"] = any(w[n] for n in ACTIVE)
        out.append(w)
    return out


def splitmix64_finalize(z):
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


class CountMin:
    def __init__(self):
        self.rows = [[0] * SKETCH_WIDTH for _ in range(SKETCH_DEPTH)]

    @staticmethod
    def bucket(row, key):
        seed = (row * 0x9E3779B97F4A7C15) & MASK64
        return splitmix64_finalize(key ^ seed) % SKETCH_WIDTH

    def add(self, key, count=1):
        for row in range(SKETCH_DEPTH):
            self.rows[row][self.bucket(row, key)] += count

    def estimate(self, key):
        return min(self.rows[row][self.bucket(row, key)]
                   for row in range(SKETCH_DEPTH))


def sketch(control, slots):
    parts = {n: CountMin() for n in (
        "ring_opcode", "active_opcode", "tenant", "status",
        "dispatch_metrics")}
    active = 0
    for s in slots:
        parts["ring_opcode"].add(s["opcode"])
        parts["tenant"].add(s["tenant"])
        parts["status"].add(s["raw"])
        if s["status"] in ACTIVE:
            parts["active_opcode"].add(s["opcode"])
            active += 1
    for opcode, count in control["metrics"]:
        parts["dispatch_metrics"].add(opcode, count)
    keys = {
        "ring_opcode": {s["opcode"] for s in slots},
        "active_opcode": {s["opcode"] for s in slots},
        "tenant": {s["tenant"] for s in slots},
        "status": {s["raw"] for s in slots},
        "dispatch_metrics": {op for op, _ in control["metrics"]},
    }
    out = {"depth": SKETCH_DEPTH, "width": SKETCH_WIDTH,
           "total_slots": len(slots), "active_slots": active}
    for name, part in parts.items():
        entries = [[k, part.estimate(k)] for k in keys[name]]
        entries = [e for e in entries if e[1]]
        entries.sort(key=lambda e: (-e[1], e[0]))
        out[name] = entries
    return out


def expect(what, got, want):
    if got != want:
        fail(f"{what}: ringfuzz printed {got!r}, the wire protocol gives "
             f"{want!r}")


def check_decode(ringfuzz, dump, epoch, previous):
    base = os.path.join(dump, epoch)
    prev = os.path.join(dump, previous)
    command = [ringfuzz, "telemetry", "decode", f"-control={base}.control",
               f"-ring={base}.ring", f"-previous_control={prev}.control",
               f"-previous_ring={prev}.ring",
               "-window_opcodes=" + ",".join(map(str, WINDOW_OPCODES)),
               f"-sketch={SKETCH_DEPTH}x{SKETCH_WIDTH}", "-json"]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        fail(f"{' '.join(command)} exited {run.returncode}: {run.stderr}")
    got = strict_json(run.stdout, f"decode of {epoch}")

    control = decode_control(words(base + ".control"))
    slots = decode_ring(words(base + ".ring"))
    occ = occupancy(slots)
    expect(f"{epoch} control", got["control"], control)
    expect(f"{epoch} occupancy", got["occupancy"], occ)
    if len(got["slots"]) != len(slots):
        fail(f"{epoch}: {len(got['slots'])} slots printed, {len(slots)} in "
             "the dump")
    for g, s in zip(got["slots"], slots):
        for key in ("slot", "status", "tenant", "opcode"):
            expect(f"{epoch} slot {s['slot']} {key}", g[key], s[key])
        if len(g["args"]) < 3:
            fail(f"{epoch} slot {s['slot']}: fewer than arg0..arg2 printed")
        expect(f"{epoch} slot {s['slot']} args", g["args"],
               s["args"][:len(g["args"])])
    expect(f"{epoch} windows", got["windows"], windows(slots))
    counters = runtime_counters(control, occ)
    expect(f"{epoch} runtime_counters", got["runtime_counters"], counters)

    accounting = got["priority_accounting"]
    expect(f"{epoch} requeue_count", accounting["requeue_count"],
           occ["requeue"])
    expect(f"{epoch} aged_promotions", accounting["aged_promotions"], 0)
    expect(f"{epoch} max_priority_age", accounting["max_priority_age"], 0)
    expect(f"{epoch} should_drain", accounting["drain"]["should_drain"],
           occ["requeue"] > 0)

    before = decode_control(words(prev + ".control"))
    delta = control["done_count"] - before["done_count"]
    health = got["health"]
    expect(f"{epoch} done_delta", health["done_delta"], delta)
    expect(f"{epoch} health queue_depth", health["queue_depth"],
           occ["queue_depth"])
    expect(f"{epoch} health fault_slots", health["fault_slots"], occ["fault"])
    expect(f"{epoch} health requeue_slots", health["requeue_slots"],
           occ["requeue"])
    expect(f"{epoch} health gpu_idle_ppm", health["gpu_idle_ppm"],
           counters["gpu_idle_ppm"])
    expect(f"{epoch} suspected_stall", health["suspected_stall"],
           occ["queue_depth"] > 0 and delta == 0 and occ["fault"] == 0)

    want = sketch(control, slots)
    for key in ("depth", "width", "total_slots", "active_slots"):
        expect(f"{epoch} sketch {key}", got["sketch"][key], want[key])
    for key in ("ring_opcode", "active_opcode", "tenant", "status",
                "dispatch_metrics"):
        printed = got["sketch"][key]
        # The top entries, by estimate then key; a list shorter than the
        # keys seen is a limit, and then at least 8 long.
        expect(f"{epoch} sketch {key}", printed, want[key][:len(printed)])
        if len(printed) < len(want[key]) and len(printed) < 8:
            fail(f"{epoch} sketch {key}: {len(printed)} of "
                 f"{len(want[key])} entries printed")
    return counters


def write_words(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack(f"<{len(values)}I", *values))


def check_rewrites(ringfuzz, dump, epoch, previous, count):
    """Random slot and control contents in the last epoch's layout."""
    rng = random.Random(20261202)
    base_control = words(os.path.join(dump, epoch + ".control"))
    base_ring = words(os.path.join(dump, epoch + ".ring"))
    floor = words(os.path.join(dump, previous + ".control"))[1]
    work = tempfile.mkdtemp()
    try:
        for prev_ext in (".control", ".ring"):
            shutil.copy(os.path.join(dump, previous + prev_ext),
                        os.path.join(work, "prev" + prev_ext))
        for i in range(count):
            c, r = list(base_control), list(base_ring)
            c[0] = rng.choice([0, 0, 1])
            c[1] = floor + rng.choice([0, 0, rng.randrange(1, 1 << 20)])
            c[128] = rng.randrange(1 << 32)
            for w in list(range(64, 128)) + list(range(136, 141)):
                c[w] = rng.choice([0, 0, rng.randrange(1 << 16)])
            for slot in range(len(r) // 16):
                w = r[16 * slot:16 * slot + 16]
                # The command refuses statuses past FAULT (a ring dump has
                # none; such words mean swapped or foreign files).
                w[0] = rng.randrange(8)
                w[1] = rng.choice([8, 9, 10, 11, 12, 3])
                w[2] = rng.randrange(4)
                w[4] = rng.randrange(6)  # tickets that repeat
                w[5] = rng.choice([0, 1, 2])
                r[16 * slot:16 * slot + 16] = w
            name = f"epoch-{i:06d}"
            write_words(os.path.join(work, name + ".control"), c)
            write_words(os.path.join(work, name + ".ring"), r)
            check_decode(ringfuzz, work, name, "prev")
    finally:
        shutil.rmtree(work)


def main():
    if len(sys.argv) != 4:
        fail("usage: spec_decode_check.py RINGFUZZ DUMP_DIR TELEMETRY_JSONL")
    ringfuzz, dump, log = sys.argv[1:]
    epochs = sorted(f[:-len(".control")] for f in os.listdir(dump)
                    if re.fullmatch(r"epoch-\d{6,}\.control", f))
    if len(epochs) < 2:
        fail(f"{dump}: {len(epochs)} epoch dumps, need two or more")
    counters = {}
    for previous, epoch in zip(epochs, epochs[1:]):
        counters[int(epoch[len("epoch-"):])] = check_decode(
            ringfuzz, dump, epoch, previous)

    rewrites = 25
    check_rewrites(ringfuzz, dump, epochs[-1], epochs[-2], rewrites)

    lines = open(log).read().splitlines()
    compared = 0
    for n, line in enumerate(lines, 1):
        record = strict_json(line, f"{log}:{n}")
        if "epoch" in record and "runtime_counters" in record:
            if record["epoch"] in counters:
                expect(f"{log}:{n} runtime_counters",
                       record["runtime_counters"], counters[record["epoch"]])
                compared += 1
        elif "find" not in record:
            fail(f"{log}:{n}: neither an epoch line nor a find line")
    if compared == 0:
        fail(f"{log}: no epoch line matched a dumped epoch")
    print(f"SPEC OK: {len(epochs) - 1} decodes, {rewrites} rewritten dumps "
          f"and {compared} epoch lines match the wire protocol")


if __name__ == "__main__":
    main()
