#!/usr/bin/env python3
"""Simulates the expert strategies of benchmarks/strategies on toast-models
models and prints a table (step time, peak memory, fit, collectives).

usage: compare_strategies.py BUILD_DIR [--models t2b,t7b,gns,unet,itx]
                             [--devices a100,tpuv3] [--extra NAME=PIPELINE]

--extra adds a column computed by a toast-opt pipeline instead of a
schedule, e.g. --extra 'auto=--toast-auto-partition=axes=B,M'.
"""
import argparse, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILY = {"t2b": "t2b", "t7b": "t7b", "itx": "itx", "gns": "gns",
          "unet": "unet"}


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode:
        raise RuntimeError(" ".join(cmd) + "\n" + r.stderr[-2000:])
    return r


def simulate(build, model_file, pipeline, device, tmp):
    out = os.path.join(tmp, "sim.json")
    start = time.time()
    run([os.path.join(build, "bin", "toast-opt"), model_file, *pipeline,
         "--partir-lower-to-hlo", "--partir-optimize-collectives",
         f"--partir-simulate=device={device} json={out}", "-o", os.devnull])
    d = json.load(open(out))
    d["wall_s"] = time.time() - start
    return d


def main():
    p = argparse.ArgumentParser()
    p.add_argument("build")
    p.add_argument("--models", default="t2b,t7b,gns,unet,itx")
    p.add_argument("--devices", default="a100,tpuv3")
    p.add_argument("--extra", action="append", default=[])
    a = p.parse_args()
    print("| model | device | strategy | step time (s) | peak (GiB) | fits | AG/AR/RS/A2A | wall (s) |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for model in a.models.split(","):
            mfile = os.path.join(tmp, model + ".mlir")
            run([os.path.join(a.build, "bin", "toast-models"), model,
                 "--quiet", "-o", mfile])
            fam = FAMILY[model]
            strategies = sorted(f[:-5] for f in os.listdir(
                os.path.join(HERE, "strategies"))
                if f.startswith(fam + "-") and f.endswith(".json"))
            for device in a.devices.split(","):
                rows = [(s, ["--partir-schedule=file=" + os.path.join(
                    HERE, "strategies", s + ".json")]) for s in strategies]
                rows += [(e.split("=", 1)[0], [e.split("=", 1)[1]])
                         for e in a.extra]
                for name, pipeline in rows:
                    try:
                        d = simulate(a.build, mfile, pipeline, device, tmp)
                    except RuntimeError as e:
                        print(f"| {model} | {device} | {name} | error | | | | |")
                        print(e, file=sys.stderr)
                        continue
                    c = d["collectives"]
                    print(f"| {model} | {device} | {name} | {d['step_time_s']:.4f} | "
                          f"{d['peak_memory_bytes'] / 2**30:.1f} | "
                          f"{'yes' if d['fits_in_memory'] else 'no'} | "
                          f"{c['all_gather']}/{c['all_reduce']}/{c['reduce_scatter']}/{c['all_to_all']} | "
                          f"{d['wall_s']:.1f} |", flush=True)


if __name__ == "__main__":
    main()
