#!/usr/bin/env python3
"""How exactly a strategy written with schedule-out replays (docs/search.md).

For the tiny zoo (transformer, itx, t2b, t2b --flatten-linear, gns, t32 at
test sizes), two meshes and three seeds, runs the automatic partitioner on a
slow device with `schedule-out=` and reads how many ops, loops or values
(tilings and atomic axes) the written schedule's replay still partitions
differently (the pass's warning; none means an exact replay) and how many selectors of op results
(`#N`) the schedule needed; then lowers the search's program and the
replay's and compares them (test/Export/Inputs/whole_roundtrip.py --compare:
same ops, local types, collectives, simulated step time and peak memory).

Usage: schedule_replay.py BUILD_BIN_DIR [OUT_DIR] [--details] [--only=REGEX]
(--only: the runs whose name, e.g. itx-B=2_S=2_M=2-2, the regex matches)
"""

import json
import os
import re
import statistics
import subprocess
import sys
import time

MODELS = {
    "transformer": "transformer --layers 2 --batch 2 --seq 8 --d-model 16 "
    "--heads 2 --vocab 32 --hidden 32",
    "itx": "itx --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24 --decode-steps 2",
    "t2b": "t2b --layers 2 --batch 4 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24",
    "t2b-flat": "t2b --flatten-linear --layers 1 --batch 2 --seq 8 "
    "--d-model 16 --heads 4 --key-size 4 --vocab 32 --hidden 24",
    "gns": "gns --nodes 8 --edges 16 --mp-steps 2 --latent 8 --hidden 8",
    "t32": "t32 --layers 1 --batch 2 --seq 8 --d-model 16 --heads 4 "
    "--key-size 4 --vocab 32 --hidden 24",
}
MESHES = ["B=2,S=2,M=2", "B=4,M=2"]
SEEDS = [1, 2, 3]
LOWER = ["--partir-lower-to-hlo", "--partir-optimize-collectives"]
PARTIAL = re.compile(r"reproduces the strategy only in part: (\d+) ops")


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        sys.exit(0 if len(sys.argv) >= 2 else 2)
    bindir = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].startswith(
        "--") else "/tmp/schedule_replay"
    details = "--details" in sys.argv
    only = [a[len("--only="):] for a in sys.argv if a.startswith("--only=")]
    os.makedirs(out, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    device = os.path.join(here, "..", "test", "Search", "Inputs", "slow.json")
    differing = []
    exact = 0
    failed = 0
    same_programs = 0
    toast_opt = os.path.join(bindir, "toast-opt")
    roundtrip = os.path.join(here, "..", "test", "Export", "Inputs",
                             "whole_roundtrip.py")
    start = time.time()
    cpu0 = os.times()
    for model, args in MODELS.items():
        source = os.path.join(out, model + ".mlir")
        subprocess.run([os.path.join(bindir, "toast-models")] + args.split() +
                       ["--quiet", "-o", source], check=True)
        for mesh in MESHES:
            for seed in SEEDS:
                name = "%s-%s-%d" % (model, mesh.replace(",", "_"), seed)
                if only and not re.search(only[0], name):
                    continue
                found = os.path.join(out, name + ".json")
                options = ("mesh=%s device=file:%s seed=%d rollouts=300 "
                           "budget-s=0 min-dims=2 progress=false "
                           "schedule-out=%s" % (mesh, device, seed, found))
                auto = os.path.join(out, name + ".auto.mlir")
                replayed = os.path.join(out, name + ".replayed.mlir")
                run = subprocess.run([
                    toast_opt, source, "--toast-auto-partition=" + options
                ] + LOWER + ["-o", auto], capture_output=True, text=True)
                if run.returncode != 0:
                    errors = [l[:300] for l in run.stderr.splitlines()
                              if "error:" in l]
                    print("%s: FAILED: %s" % (name, " / ".join(errors)))
                    failed += 1
                    continue
                match = PARTIAL.search(run.stderr)
                diff = int(match.group(1)) if match else 0
                with open(found) as f:
                    schedule = json.load(f)
                pins = sum(1 for t in schedule["tactics"]
                           for s in t["inputs"] if s.startswith("#"))
                # The device-local programs of the search and of the replay:
                # same ops, local types, collectives, step time and memory.
                subprocess.run([
                    toast_opt, source, "--partir-schedule=file=" + found
                ] + LOWER + ["-o", replayed], check=True)
                compare = subprocess.run(
                    [sys.executable, roundtrip, toast_opt, "--compare", auto,
                     replayed], capture_output=True, text=True)
                same = compare.stdout.startswith("ok compare")
                same_programs += same
                if diff == 0:
                    exact += 1
                else:
                    differing.append(diff)
                if details:
                    print("%-40s differing %3d  pins %2d  %s" %
                          (name, diff, pins,
                           "same program" if same else "OTHER PROGRAM"))
    cpu1 = os.times()
    runs = exact + len(differing)
    print("%d of %d replay exactly (%d runs failed)" %
          (exact, runs + failed, failed))
    print("%d of %d give the search's device-local program (ops, local "
          "types, collectives, step time, peak memory)" % (same_programs, runs))
    if differing:
        print("the other %d differ in %d to %d ops (median %g): %s" %
              (len(differing), min(differing), max(differing),
               statistics.median(differing), sorted(differing)))
    print("wall %.1f s, cpu (children user+sys) %.1f s" %
          (time.time() - start, (cpu1.children_user - cpu0.children_user) +
           (cpu1.children_system - cpu0.children_system)))


if __name__ == "__main__":
    main()
