#!/usr/bin/env python3
"""PartIR table 3 side by side (issue 16, docs/simulator.md).

T32, U-Net and GNS under the schedules of PartIR appendix A.6 on 32 TPUv3
({batch: 8, model: 4}), in f32 as in PartIR's configuration: simulated peak
memory, memory floor, step time and collective counts of the program
partitioned, lowered and simulated, next to the paper's memory and runtime
estimates (table 3).

  benchmarks/partir_table3.py --build build [--device tpuv3]
"""
import argparse
import json
import os
import sys
import tempfile

import search_targets

HERE = os.path.dirname(os.path.abspath(__file__))
INPUTS = os.path.join(HERE, "..", "test", "Models", "Inputs")

# PartIR appendix A.3. U-Net: the appendix gives the block structure and 16
# attention heads but no widths, so the channels are toast-models' default
# (TOAST's 3.6B U-Net); GNS: "5 MLP layers of hidden size 1024", latent
# 512, 2048 nodes and the smallest of its edge counts, 8192 (table 3 does
# not say which; 5 MLP layers read as 5 linear layers, 4 hidden).
CONFIGS = {
    "t32": ["t32", []],
    "unet": ["unet", ["--heads", "16"]],
    "gns": ["gns", ["--nodes", "2048", "--edges", "8192", "--mp-steps", "24",
                    "--latent", "512", "--hidden", "1024",
                    "--mlp-layers", "4"]],
}

# (model, row, schedule file, paper memory MB, paper runtime ms): table 3.
ROWS = [
    ("t32", "BP", INPUTS + "/t32-bp.json", 100343.69, 4803.34),
    ("t32", "MP", INPUTS + "/t32-mp.json", 177148.23, 10837.42),
    ("t32", "BP+MP", INPUTS + "/t32-bp-mp.json", 59826.45, 4856.25),
    ("t32", "BP+MP+Z2", INPUTS + "/t32-bp-mp-z2.json", 50124.45, 4856.25),
    ("t32", "BP+MP+Z3", INPUTS + "/t32-bp-mp-z3.json", 45068.63, 4960.32),
    ("t32", "EMB (MP+EMB)", INPUTS + "/t32-mp-emb.json", 176974.51,
     10934.86),
    ("unet", "BP", HERE + "/search/unet-bp.json", 2406.68, 25.80),
    ("unet", "BP+Z2", HERE + "/search/unet-bp-z2.json", 933.36, 25.80),
    ("unet", "BP+Z3", HERE + "/search/unet-bp-z3.json", 309.48, 37.73),
    ("gns", "ES", HERE + "/search/gns-es.json", 10379.47, 294.13),
]


def counts(report):
    c = report["collectives"]
    return "/".join(str(c.get(k, 0)) for k in
                    ["all_gather", "all_reduce", "reduce_scatter",
                     "all_to_all"])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="build directory")
    parser.add_argument("--device", default="tpuv3")
    parser.add_argument("--models", default="t32,unet,gns")
    args = parser.parse_args()
    tools = os.path.join(os.path.abspath(args.build), "bin")
    wanted = args.models.split(",")
    print("| model | schedule | peak GB | floor GB | paper GB | peak / paper "
          "| step ms | compute ms | comm ms | paper ms | step / paper "
          "| AG/AR/RS/A2A |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as directory:
        files = {}
        for model, row, path, paper_mb, paper_ms in ROWS:
            if model not in wanted:
                continue
            if model not in files:
                files[model] = search_targets.generate(
                    tools, CONFIGS[model][0], CONFIGS[model][1], directory,
                    "f32")
            with open(path) as f:
                schedule = json.load(f)
            schedule["device"] = args.device
            proc, r = search_targets.simulate_schedule(
                tools, files[model], schedule, report=False)
            if not r:
                print(f"{model} {row}: FAILED\n{proc.stderr[-2000:]}",
                      file=sys.stderr)
                continue
            peak, floor = r["peak_memory_bytes"] / 1e9, \
                r["memory_floor_bytes"] / 1e9
            step = r["step_time_s"] * 1e3
            print(f"| {model} | {row} | {peak:.1f} | {floor:.1f} | "
                  f"{paper_mb / 1e3:.1f} | {peak / (paper_mb / 1e3):.2f} | "
                  f"{step:.1f} | {r['compute_time_s'] * 1e3:.1f} | "
                  f"{r['comm_time_s'] * 1e3:.1f} | {paper_ms:.1f} | "
                  f"{step / paper_ms:.2f} | {counts(r)} |", flush=True)


if __name__ == "__main__":
    main()
