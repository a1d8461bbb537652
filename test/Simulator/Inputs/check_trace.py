#!/usr/bin/env python3
"""Checks a --partir-simulate trace (and memory CSV) against its JSON report.

  check_trace.py REPORT.json TRACE.json [MEMORY.csv] [--regions N]

The trace must be a Chrome trace event file of the shape docs/simulator.md
("Timeline") describes, and its totals must equal the report's: the compute
slices add up to compute_time_s, the collective slices to comm_time_s, the
last slice ends at step_time_s, the largest "live memory" counter is
peak_memory_bytes, the "memory floor" counter is memory_floor_bytes, and the
"peak memory" marker carries the peak. Slices on one track nest properly.
The CSV has the header time_s,live_bytes,op_index,op, one row per op, and
its largest live_bytes is the peak. --regions N requires at least N region
(loop or conditional) slices. Prints one summary line; exits 1 on failure.
"""
import csv
import json
import math
import sys


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


def close(a, b, what):
    if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12):
        fail(f"{what}: {a!r} != {b!r}")


def main(argv):
    regions = 0
    if "--regions" in argv:
        i = argv.index("--regions")
        regions = int(argv[i + 1])
        del argv[i:i + 2]
    report = json.load(open(argv[0]))
    trace = json.load(open(argv[1]))
    if set(trace) != {"traceEvents", "otherData"}:
        fail(f"top-level keys {sorted(trace)}")
    events = trace["traceEvents"]
    if not isinstance(events, list) or not events:
        fail("traceEvents is not a non-empty list")
    for e in events:
        if not isinstance(e.get("name"), str) or e.get("ph") not in "MXCi":
            fail(f"bad event {e}")
        if e.get("pid") != 1:
            fail(f"pid of {e}")
        if e["ph"] in "XCi" and not (isinstance(e.get("ts"), (int, float))
                                     and e["ts"] >= 0):
            fail(f"ts of {e}")
        if e["ph"] in "XiM" and e.get("tid") not in (0, 1, 2):
            fail(f"tid of {e}")
        if not isinstance(e.get("args"), dict):
            fail(f"args of {e}")

    threads = {e["tid"]: e["args"]["name"] for e in events
               if e["ph"] == "M" and e["name"] == "thread_name"}
    if threads.get(1) != "compute" or not threads.get(2, "").startswith(
            "collectives"):
        fail(f"thread names {threads}")
    if not any(e["ph"] == "M" and e["name"] == "process_name" for e in events):
        fail("no process_name")

    slices = [e for e in events if e["ph"] == "X"]
    for e in slices:
        if not (isinstance(e.get("dur"), (int, float)) and e["dur"] > 0):
            fail(f"dur of {e}")
        if e.get("cat") not in ("compute", "collective", "region"):
            fail(f"cat of {e}")
        if not isinstance(e["args"].get("loc"), str) or not isinstance(
                e["args"].get("op_index"), int):
            fail(f"args of {e}")
        if e["cat"] == "compute" and e["tid"] != 1:
            fail(f"compute slice off the compute track: {e}")
        if e["cat"] == "collective" and (e["tid"] != 2 or "kind" not in
                                         e["args"]):
            fail(f"collective slice: {e}")
    compute = sum(e["dur"] for e in slices if e["cat"] == "compute") / 1e6
    comm = sum(e["dur"] for e in slices if e["cat"] == "collective") / 1e6
    close(compute, report["compute_time_s"], "compute slices vs report")
    close(comm, report["comm_time_s"], "collective slices vs report")
    ops = [e for e in slices if e["cat"] != "region"]
    end = max((e["ts"] + e["dur"] for e in ops), default=0) / 1e6
    if ops:
        close(end, report["step_time_s"], "end of the last slice vs step")
    found_regions = sum(1 for e in slices if e["cat"] == "region")
    if found_regions < regions:
        fail(f"{found_regions} region slices, expected at least {regions}")

    # Slices of a track nest: each starts after the enclosing one ends, or
    # ends within it.
    eps = 1e-6 * max(1.0, end * 1e6)
    for tid in (1, 2):
        stack = []
        for e in sorted((e for e in slices if e["tid"] == tid),
                        key=lambda e: (e["ts"], -e["dur"])):
            while stack and e["ts"] >= stack[-1] - eps:
                stack.pop()
            if stack and e["ts"] + e["dur"] > stack[-1] + eps:
                fail(f"slice {e} overlaps its neighbour on track {tid}")
            stack.append(e["ts"] + e["dur"])

    live = [e["args"]["bytes"] for e in events
            if e["ph"] == "C" and e["name"] == "live memory"]
    if not live or max(live) != report["peak_memory_bytes"]:
        fail(f"max live memory {max(live, default=None)} != peak "
             f"{report['peak_memory_bytes']}")
    floor = {e["args"]["bytes"] for e in events
             if e["ph"] == "C" and e["name"] == "memory floor"}
    if floor != {report["memory_floor_bytes"]}:
        fail(f"memory floor counter {floor} != {report['memory_floor_bytes']}")
    peaks = [e for e in events if e["ph"] == "i" and e["name"] == "peak memory"]
    if report["peak_memory_op_index"] >= 0:
        if len(peaks) != 1 or peaks[0]["args"]["bytes"] != \
                report["peak_memory_bytes"] or peaks[0]["args"]["op_index"] \
                != report["peak_memory_op_index"]:
            fail(f"peak marker {peaks}")
    other = trace["otherData"]
    for key in ("step_time_s", "compute_time_s", "comm_time_s",
                "peak_memory_bytes", "memory_floor_bytes"):
        close(other[key], report[key], "otherData " + key)
    if report["memory_floor_bytes"] > report["peak_memory_bytes"]:
        fail("floor above peak")

    rows = 0
    if len(argv) > 2:
        with open(argv[2]) as f:
            reader = csv.reader(f)
            if next(reader) != ["time_s", "live_bytes", "op_index", "op"]:
                fail("CSV header")
            table = list(reader)
        rows = len(table)
        if rows != report["num_ops"]:
            fail(f"{rows} CSV rows for {report['num_ops']} ops")
        if [int(r[2]) for r in table] != list(range(rows)):
            fail("CSV op indices")
        if max(int(r[1]) for r in table) != report["peak_memory_bytes"]:
            fail("CSV max live bytes != peak")
        if any(float(r[0]) < 0 or float(r[0]) > report["step_time_s"] * (1 + 1e-9)
               for r in table):
            fail("CSV time outside the step")
    print(f"OK: {len(ops)} op slices, {found_regions} region slices, "
          f"{len(live)} memory points, {rows} CSV rows")


if __name__ == "__main__":
    main(sys.argv[1:])
