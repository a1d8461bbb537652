#!/usr/bin/env python3
"""Scanned vs unrolled twins under the expert schedules (issue 14 targets).

For each model (full size by default) and device, on the schedules' mesh:
generates the model unrolled and with `--scan` (layers in one
stablehlo.while over stacked [L, ...] parameters), runs every expert
schedule benchmarks/search/<model>-*.json on both, and prints the simulated
step time, peak memory and collective counts of each twin.

The scanned program's parameters are stacked, so each schedule is rewritten
for it: an input of a per-layer parameter becomes the same input of the
stacked parameter one dimension further in (the layer dimension comes
first), and `first_divisible` is resolved on the stacked shape skipping the
layer dimension (which dynamic_slice indexes, so tiling it would gather the
whole stack every iteration). Every number comes from toast-opt's reports.

  benchmarks/scan_twins.py --build build [--models t2b,itx]
      [--devices a100,tpuv3] [--flags "--layers 4"]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ARG = re.compile(r"%arg\d+: tensor<([0-9x]+)x[a-z0-9]+> \{jax\.arg_info = "
                 r"\"([^\"]+)\"")
STEP = re.compile(r"step time\s*: ([0-9.]+) (us|ms|s) ")
PEAK = re.compile(r"peak memory\s*: .*\((\d+) B\) of")
COLLECTIVES = re.compile(r"collectives\s*: (.*)")
UNIT = {"us": 1e-6, "ms": 1e-3, "s": 1.0}


def generate(tools, model, flags, directory):
    path = os.path.join(directory, f"{model}{''.join(flags)}.mlir"
                        .replace(" ", ""))
    subprocess.run([os.path.join(tools, "toast-models"), model, "--quiet",
                    "-o", path] + flags, check=True)
    return path


def arguments(path):
    """{name: shape} of the entry function's arguments."""
    with open(path) as f:
        text = f.read(1 << 22)
    return {name: [int(d) for d in shape.split("x")]
            for shape, name in ARG.findall(text)}


def selects(selector, name):
    if selector.startswith("re:"):
        return re.fullmatch(selector[3:], name) is not None
    return selector == name


def scanned_schedule(schedule, args):
    """The schedule with stacked parameters' inputs moved past dim 0."""
    mesh = schedule["mesh"]
    tiled = {}  # name -> per-dim product of the axes tiling it so far
    out = json.loads(json.dumps(schedule))
    for tactic in out["tactics"]:
        if tactic.get("kind") != "manual":
            continue
        axis = mesh[tactic["axis"]]
        inputs = {}
        for selector, spec in tactic["inputs"].items():
            for name, shape in args.items():
                if not selects(selector, name) or name in inputs:
                    continue
                stacked = ".layers." in name
                divs = tiled.setdefault(name, [1] * len(shape))
                if spec == "first_divisible":
                    first = 1 if stacked else 0
                    dims = [d for d in range(first, len(shape))
                            if shape[d] % (divs[d] * axis) == 0]
                    if not dims:
                        continue
                    dim = dims[0]
                elif isinstance(spec, int):
                    dim = spec + 1 if stacked else spec
                else:
                    inputs[name] = spec
                    continue
                divs[dim] *= axis
                inputs[name] = dim
        tactic["inputs"] = inputs
    return out


def simulate(tools, model_file, schedule, device):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(schedule, f)
        path = f.name
    proc = subprocess.run(
        [os.path.join(tools, "toast-opt"), model_file,
         f"--partir-schedule=file={path}", "--partir-lower-to-hlo",
         f"--partir-simulate=device={device}", "-o", os.devnull],
        capture_output=True, text=True)
    os.unlink(path)
    step, peak = STEP.search(proc.stderr), PEAK.search(proc.stderr)
    if proc.returncode != 0 or not step or not peak:
        print(f"FAILED {model_file} {device}:\n{proc.stderr[-2000:]}",
              file=sys.stderr)
        return None
    counts = COLLECTIVES.search(proc.stderr).group(1)
    short = " ".join(c.replace("all_", "").replace("reduce_scatter", "rs")
                     for c in counts.split() if not c.endswith("=0"))
    return (float(step.group(1)) * UNIT[step.group(2)], int(peak.group(1)),
            short)


def expert_schedules(model, wanted=None):
    """(suffix, schedule) of every benchmarks/search/<model>-<suffix>.json,
    sorted by file name; only the suffixes in `wanted` when it is not empty."""
    for name in sorted(os.listdir(os.path.join(HERE, "search"))):
        if not (name.startswith(model + "-") and name.endswith(".json")):
            continue
        suffix = name[len(model) + 1:-5]
        if wanted and suffix not in wanted:
            continue
        with open(os.path.join(HERE, "search", name)) as f:
            yield suffix, json.load(f)


def print_twin_row(model, device, suffix, first, second):
    """A table row comparing two simulate() results: step times, their
    ratio (second / first), peaks in GiB and collective counts."""
    print(f"| {model} | {device} | {suffix} "
          f"| {first[0] * 1e3:.2f} | {second[0] * 1e3:.2f} "
          f"| {second[0] / first[0]:.3f} | {first[1] / 2**30:.2f} "
          f"| {second[1] / 2**30:.2f} | {first[2]} / {second[2]} |",
          flush=True)


def twin_parser(doc, models, devices):
    """The options every twin benchmark takes (--build, --models,
    --devices, --flags), with these defaults."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--build", required=True)
    parser.add_argument("--models", default=models)
    parser.add_argument("--devices", default=devices)
    parser.add_argument("--flags", default="",
                        help="extra toast-models flags for both twins")
    return parser


def main():
    args = twin_parser(__doc__, "t2b,itx", "a100,tpuv3").parse_args()
    tools = os.path.join(args.build, "bin")
    flags = args.flags.split()
    print("| model | device | schedule | unrolled ms | scanned ms | ratio "
          "| unrolled GiB | scanned GiB | collectives unrolled / scanned |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for model in args.models.split(","):
            unrolled = generate(tools, model, flags, directory)
            scanned = generate(tools, model, flags + ["--scan"], directory)
            stacked_args = arguments(scanned)
            for device in args.devices.split(","):
                for suffix, schedule in expert_schedules(model):
                    u = simulate(tools, unrolled, schedule, device)
                    s = simulate(tools, scanned,
                                 scanned_schedule(schedule, stacked_args),
                                 device)
                    if u and s:
                        print_twin_row(model, device, suffix, u, s)


if __name__ == "__main__":
    main()
