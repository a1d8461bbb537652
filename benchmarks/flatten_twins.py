#!/usr/bin/env python3
"""PyTorch-way vs batched transformer layers under expert schedules (issue 18).

For each model and device: generates the transformer as toast-models writes
it (batched contractions over [B, S, D]) and with `--flatten-linear` (the
PyTorch way: every linear layer flattens to [B*S, D], multiplies by a 2-D
weight and unflattens; heads split and merged by reshapes), runs every
expert schedule benchmarks/search/<model>-*.json on both (the parameters
keep one layout, so one schedule fits both), and prints the simulated step
time, peak memory and collective counts of each twin. Every number comes
from toast-opt's reports (scan_twins.simulate).

  benchmarks/flatten_twins.py --build build [--models t2b] [--devices a100]
      [--flags "--layers 2"] [--schedules bp,bp-mp,bp-sp]
"""
import os
import tempfile

from scan_twins import (expert_schedules, generate, print_twin_row, simulate,
                        twin_parser)


def main():
    parser = twin_parser(__doc__, "t2b", "a100")
    parser.add_argument("--schedules", default="",
                        help="comma-separated schedule suffixes (default all)")
    args = parser.parse_args()
    tools = os.path.join(args.build, "bin")
    flags = args.flags.split()
    wanted = set(filter(None, args.schedules.split(",")))
    print("| model | device | schedule | batched ms | flattened ms | ratio "
          "| batched GiB | flattened GiB | collectives batched / flattened |")
    print("|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for model in args.models.split(","):
            batched = generate(tools, model, flags, directory)
            flat = generate(tools, model, flags + ["--flatten-linear"],
                            directory)
            for device in args.devices.split(","):
                for suffix, schedule in expert_schedules(model, wanted):
                    u = simulate(tools, batched, schedule, device)
                    s = simulate(tools, flat, schedule, device)
                    if u and s:
                        print_twin_row(model, device, suffix, u, s)


if __name__ == "__main__":
    main()
