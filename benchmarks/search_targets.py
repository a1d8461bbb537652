#!/usr/bin/env python3
"""The automatic-partitioning targets (issue 9, docs/performance.md).

For each model at full size and each device, on a {B: 8, M: 4} mesh:
  * the expert schedules in benchmarks/search/<model>-*.json (BP/ES, Megatron
    MP, Z3/FSDP and their combinations), simulated after partitioning;
  * AutomaticPartition with MCTS over several seeds, and the random and
    AutoMap-style baselines with the same budget and threads;
  * the Alpa / XLA auto-sharding ILP (algorithm=ilp, CBC, its own time
    limit: --ilp-time-limit, 600 s as Alpa) and its solve time;
and prints a markdown table of simulated step time, peak memory per device
and the search's time to its best state and to its stop (medians over the
MCTS seeds; MCTS stops by itself, the budget is an upper bound), then one
row per expert and per search with its memory floor (peak / floor), states
priced, time to best, time to stop and why it stopped.
--scaling measures search time against the number of devices and layers
instead (use it with a rollout budget: --budget 0 --rollouts 1000);
--figure10 compares t2b at long sequence lengths on {batch, seq, model}
meshes (TOAST figure 10).

Every number comes from toast-opt's own reports: the schedule pass with a
"device" simulates the program partitioned after each tactic, and the
automatic tactic prints its search time.

  benchmarks/search_targets.py --build build-models [--models t2b,gns]
      [--devices a100,tpuv3] [--budget 30] [--seeds 1,2,3] [--threads 2]
      [--patience 30] [--no-baselines]
"""
import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = ["t2b", "t7b", "gns", "unet", "itx"]
# Device memory (bytes) of the built-in devices, for the "fits" column.
MEMORY = {"a100": 40 * 2**30, "tpuv3": 32 * 2**30, "h100": 80 * 2**30,
          "p100": 16 * 2**30}
SIMULATED = re.compile(r"partir-schedule: tactic (\S+): .*simulated on \S+: "
                       r"step ([0-9.eE+-]+) s, peak (\d+) B")
# The tactic's report (lib/toast/Search/Auto/AutoPartition.cpp).
CHOSE = re.compile(r"auto-partition: \S+ chose (\d+) actions in ([0-9.]+) s "
                   r"\((\d+) rounds, (\d+) rollouts, (\d+) states priced; "
                   r"best after ([0-9.]+) s; stopped: (.*)\): cost \S+ "
                   r"\(([0-9.]+) (s|ms|us|ns) step")
# Milliseconds per unit of the simulator's times (sim::formatTime).
MS_PER = {"s": 1e3, "ms": 1.0, "us": 1e-3, "ns": 1e-6}
# The chosen actions, one per line after CHOSE.
ACTION = re.compile(r"^auto-partition:   (.*)$", re.M)
SETUP = re.compile(r"\(setup ([0-9.]+) s\)")
# Where MCTS's time went: the end of its rounds and of its first climb.
PHASES = re.compile(r"auto-partition: rounds stopped: .* \(after ([0-9.]+) s, "
                    r"(\d+) states\)(?:; first climb stuck after ([0-9.]+) s, "
                    r"(\d+) states; (\d+) restarts)?")


def child_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def simulate_schedule(tools, model_file, schedule, report=True):
    """Runs toast-opt with a schedule, lowers its result and simulates it
    with a JSON report (the schedule's own report has no memory floor).
    Returns (process, the JSON report or None)."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(schedule, f)
        path = f.name
    report_path = path + ".report.json"
    device = schedule.get("device", "a100")
    proc = subprocess.run(
        [os.path.join(tools, "toast-opt"), model_file,
         f"--partir-schedule=file={path} report={str(report).lower()}",
         "--partir-lower-to-hlo",
         f"--partir-simulate=device={device} json={report_path}",
         "-o", os.devnull],
        capture_output=True, text=True)
    os.unlink(path)
    simulated = None
    if proc.returncode == 0 and os.path.exists(report_path):
        with open(report_path) as f:
            simulated = json.load(f)
    if os.path.exists(report_path):
        os.unlink(report_path)
    return proc, simulated


def run_schedule(tools, model_file, schedule):
    """Runs a schedule; returns (step s, peak B, floor B, stderr, wall s,
    CPU s)."""
    start, cpu = time.time(), child_cpu()
    proc, simulated = simulate_schedule(tools, model_file, schedule)
    wall, cpu = time.time() - start, child_cpu() - cpu
    found = SIMULATED.findall(proc.stderr)
    if not found or not simulated:
        return None, None, None, proc.stderr, wall, cpu
    _, step, peak = found[-1]
    # The schedule's simulation and the lowered program's are the same
    # pipeline; a difference would make the floor belong to another program.
    if int(peak) != simulated["peak_memory_bytes"]:
        print(f"  warning: schedule peak {peak} B != lowered peak "
              f"{simulated['peak_memory_bytes']} B", file=sys.stderr)
    return (float(step), int(peak), int(simulated["memory_floor_bytes"]),
            proc.stderr, wall, cpu)


def experts(tools, model, model_file, device):
    rows = []
    for name in sorted(os.listdir(os.path.join(HERE, "search"))):
        if not name.startswith(model + "-") or not name.endswith(".json"):
            continue
        with open(os.path.join(HERE, "search", name)) as f:
            schedule = json.load(f)
        schedule["device"] = device
        step, peak, floor, err, _, _ = run_schedule(tools, model_file,
                                                    schedule)
        if step is None:
            print(f"  {name}: FAILED\n{err[-2000:]}", file=sys.stderr)
            continue
        rows.append((name[len(model) + 1:-5], step, peak, floor))
    return rows


def search(tools, model_file, device, mesh, algorithm, seed, args):
    tactic = {"name": "Auto", "kind": "automatic", "algorithm": algorithm,
              "seed": seed, "budget_s": args.budget, "threads": args.threads}
    if args.rollouts:
        tactic["rollouts"] = args.rollouts
    if args.patience is not None:
        tactic["restart_patience"] = args.patience
    if algorithm == "ilp":
        tactic["ilp_time_limit_s"] = args.ilp_time_limit
    schedule = {"mesh": mesh, "device": device, "tactics": [tactic]}
    step, peak, floor, err, wall, cpu = run_schedule(tools, model_file,
                                                     schedule)
    chose = CHOSE.search(err)
    setup = SETUP.search(err)
    if step is None or not chose:
        print(f"  {algorithm} seed {seed}: FAILED\n{err[-2000:]}",
              file=sys.stderr)
        return None
    # Search times include building the space; CPU time (of the whole
    # toast-opt run, simulations included) depends less on the load.
    setup_s = float(setup.group(1))
    phases = PHASES.search(err)
    return {"step": step, "peak": peak, "floor": floor,
            "phases": phases_of(phases, setup_s),
            "actions": int(chose.group(1)),
            "chosen": ACTION.findall(err[chose.end():]),
            "search_s": float(chose.group(2)) + setup_s,
            "best_s": float(chose.group(6)) + setup_s,
            "rollouts": int(chose.group(4)), "priced": int(chose.group(5)),
            "stop": chose.group(7), "model_ms": float(chose.group(8)) * MS_PER[chose.group(9)],
            "wall_s": wall, "cpu_s": cpu}


def phases_of(match, setup_s):
    """'rounds s (states) / climb s (states) / restarts', times from the
    start of the tactic, or '-' when the report has none."""
    if not match:
        return "-"
    text = f"{float(match.group(1)) + setup_s:.1f} ({match.group(2)})"
    if match.group(3):
        text += (f" / {float(match.group(3)) + setup_s:.1f} "
                 f"({match.group(4)}) / {match.group(5)}")
    return text


def generate(tools, model, flags, directory, dtype="bf16"):
    """The model at full size, in `dtype` (bf16: mixed precision, as the
    targets are measured; f32 where the models compute in f32)."""
    flags = ["--dtype", dtype] + flags
    path = os.path.join(directory, model + "".join(flags).replace(" ", "") +
                        ".mlir")
    subprocess.run([os.path.join(tools, "toast-models"), model, "--quiet",
                    "-o", path] + flags, check=True)
    return path


def fmt_gb(peak, device):
    fits = "" if peak <= MEMORY.get(device, float("inf")) else " (OOM)"
    return f"{peak / 2**30:.2f}{fits}"


def cell(result, device):
    """'step ms (GiB[ OOM])' of a run, or '-'."""
    if not result:
        return "-"
    return f"{result['step'] * 1e3:.1f} ({fmt_gb(result['peak'], device)})"


def ratio(peak, floor):
    """Simulated peak / memory floor (issue 16: <= 1.3), or '-'."""
    return f"{peak / floor:.2f}" if floor else "-"


def detail_rows(model, device, experts_rows, runs):
    """Markdown rows of every expert and search: step, memory, peak / floor
    and, for the searches, states priced, time to best and to stop and why
    the search stopped."""
    lines = []
    for name, step, peak, floor in experts_rows:
        lines.append(f"| {model} | {device} | expert {name} | "
                     f"{step * 1e3:.1f} | {fmt_gb(peak, device)} | "
                     f"{floor / 2**30:.2f} | {ratio(peak, floor)} "
                     f"| | | | | | |")
    for label, r in runs:
        if not r:
            lines.append(f"| {model} | {device} | {label} | failed "
                         f"| | | | | | | | | |")
            continue
        lines.append(f"| {model} | {device} | {label} | "
                     f"{r['step'] * 1e3:.1f} | {fmt_gb(r['peak'], device)} | "
                     f"{r['floor'] / 2**30:.2f} | {ratio(r['peak'], r['floor'])}"
                     f" | {r['priced']} | {r['best_s']:.1f} | "
                     f"{r['search_s']:.1f} | {r['cpu_s']:.1f} | {r['stop']} "
                     f"| {r['phases']} |")
    return lines


DETAIL_HEADER = [
    "| model | device | strategy | step ms | GiB | floor GiB | peak / floor "
    "| states | s to best | s to stop | CPU s | stopped | rounds end s (states) "
    "/ first climb stuck s (states) / restarts |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]


def median_run(results):
    """The run with the median step time (the lower middle one of an even
    number), or None."""
    done = sorted((r for r in results if r), key=lambda r: r["step"])
    return done[(len(done) - 1) // 2] if done else None


def median_times(results):
    """'to best / to stop' seconds, medians over the runs that finished."""
    done = [r for r in results if r]
    if not done:
        return "-"
    best = statistics.median(r["best_s"] for r in done)
    stop = statistics.median(r["search_s"] for r in done)
    return f"{best:.1f} / {stop:.1f}"


def targets(tools, args, directory):
    mesh = {"B": 8, "M": 4}
    print("| model | device | best expert | step ms | GiB | MCTS per seed: "
          "step ms (GiB) | MCTS s to best / to stop, median | random | "
          "AutoMap | ILP: step ms (GiB), s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    details = []
    for model in args.models:
        model_file = generate(tools, model, [], directory, args.dtype)
        for device in args.devices:
            rows = ([] if args.no_experts else
                    experts(tools, model, model_file, device))
            if args.experts_only:
                details += detail_rows(model, device, rows, [])
                continue
            memory = MEMORY.get(device, float("inf"))
            # The fastest expert that fits (the fastest of all if none does).
            fitting = [r for r in rows if r[2] <= memory]
            best = min(fitting or rows, key=lambda r: r[1]) if rows else None
            autos = [search(tools, model_file, device, mesh, "mcts", s, args)
                     for s in args.seeds]
            rnd = amap = ilp = None
            rnds = []
            if not args.no_baselines:
                # Random search with every seed when asked, so that MCTS's
                # median compares with random's median at equal budget.
                rnd_seeds = args.seeds if args.random_seeds else args.seeds[:1]
                rnds = [search(tools, model_file, device, mesh, "random", s,
                               args) for s in rnd_seeds]
                rnd = median_run(rnds)
                if not args.no_automap:
                    amap = search(tools, model_file, device, mesh, "automap",
                                  args.seeds[0], args)
            if not args.no_ilp:
                ilp = search(tools, model_file, device, mesh, "ilp",
                             args.seeds[0], args)
            cells = [model, device]
            if best:
                cells += [best[0] + ("" if fitting else " (none fits)"),
                          f"{best[1] * 1e3:.1f}", fmt_gb(best[2], device)]
            else:
                cells += ["-", "-", "-"]
            cells.append(" / ".join(cell(a, device) for a in autos))
            cells.append(median_times(autos))
            cells.append(" / ".join(cell(r, device) for r in rnds) +
                         (f", median {cell(rnd, device)}"
                          if len(rnds) > 1 else "") or "-")
            cells.append(cell(amap, device))
            cells.append(f"{cell(ilp, device)}, {ilp['search_s']:.0f} s"
                         if ilp else "-")
            print("| " + " | ".join(cells) + " |", flush=True)
            runs = [(f"MCTS seed {s}", a) for s, a in zip(args.seeds, autos)]
            if not args.no_baselines:
                runs += [(f"random seed {s}", r)
                         for s, r in zip(args.seeds, rnds)]
                if not args.no_automap:
                    runs.append((f"AutoMap seed {args.seeds[0]}", amap))
            if not args.no_ilp:
                runs.append((f"ILP ({args.ilp_time_limit:g} s limit)", ilp))
            details += detail_rows(model, device, rows, runs)
            detail = {"experts": rows, "mcts": autos, "random": rnd,
                      "automap": amap, "ilp": ilp}
            print(f"<!-- {model} {device}: {json.dumps(detail)} -->",
                  file=sys.stderr, flush=True)
    print()
    print("\n".join(DETAIL_HEADER + details), flush=True)


def scaling(tools, args, directory):
    print("| model | mesh | devices | search s | step ms | GiB |")
    print("|---|---|---|---|---|---|")
    model_file = generate(tools, "t2b", ["--batch", "256"], directory,
                          args.dtype)
    for b, m in [(2, 2), (4, 2), (4, 4), (8, 4), (16, 4), (16, 8), (32, 8)]:
        r = search(tools, model_file, args.devices[0], {"B": b, "M": m},
                   "mcts", args.seeds[0], args)
        if r:
            print(f"| t2b --batch 256 | B={b},M={m} | {b * m} | "
                  f"{r['search_s']:.1f} | {r['step'] * 1e3:.1f} | "
                  f"{r['peak'] / 2**30:.1f} |", flush=True)
    for layers in [2, 6, 18, 36]:
        flags = ["--layers", str(layers)]
        model_file = generate(tools, "t2b", flags, directory, args.dtype)
        r = search(tools, model_file, args.devices[0], {"B": 8, "M": 4},
                   "mcts", args.seeds[0], args)
        if r:
            print(f"| t2b --layers {layers} | B=8,M=4 | 32 | "
                  f"{r['search_s']:.1f} | {r['step'] * 1e3:.1f} | "
                  f"{r['peak'] / 2**30:.1f} |", flush=True)


def load_expert(name):
    with open(os.path.join(HERE, "search", name + ".json")) as f:
        return json.load(f)


def figure10(tools, args, directory):
    """TOAST figure 10: t2b with batch 2 at long sequence lengths on a
    {batch, seq, model} mesh; the expert is BP + SP + Megatron + Z3."""
    bp_mp_z3 = load_expert("t2b-bp-mp-z3")["tactics"]
    sp = load_expert("t2b-bp-sp")["tactics"][1]
    device = args.devices[0]
    print("| L | mesh (devices) | expert BP+SP+MP+Z3: step ms (GiB) | "
          "automatic: step ms (GiB) | search s |")
    print("|---|---|---|---|---|")
    for length, seq in [(2048, 2), (8192, 8), (16384, 16), (32768, 32)]:
        mesh = {"batch": 2, "seq": seq, "model": 2}
        model_file = generate(tools, "t2b", ["--batch", "2", "--seq",
                                             str(length)], directory,
                              args.dtype)
        tactics = [dict(bp_mp_z3[0], axis="batch"), dict(sp, axis="seq"),
                   dict(bp_mp_z3[1], axis="model"),
                   dict(bp_mp_z3[2], axis="batch")]
        step, peak, _, err, _, _ = run_schedule(
            tools, model_file,
            {"mesh": mesh, "device": device, "tactics": tactics})
        expert = ({"step": step, "peak": peak} if step is not None else None)
        if expert is None:
            print(f"  expert L={length}: FAILED\n{err[-2000:]}",
                  file=sys.stderr)
        auto = search(tools, model_file, device, mesh, "mcts",
                      args.seeds[0], args)
        shape = "x".join(str(v) for v in mesh.values())
        print(f"| {length} | {shape} ({2 * seq * 2}) | "
              f"{cell(expert, device)} | {cell(auto, device)} | "
              f"{auto['search_s']:.1f} |" if auto else "-", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="build directory")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--devices", default="a100,tpuv3")
    parser.add_argument("--budget", type=float, default=30)
    parser.add_argument("--seeds", default="1,2,3")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--patience", type=int, default=None,
                        help="restart_patience of the automatic tactic "
                        "(default: the tactic's, 30)")
    parser.add_argument("--rollouts", type=int, default=0,
                        help="rollout budget (with --budget 0: a fixed amount "
                        "of search, to measure time per rollout)")
    parser.add_argument("--no-baselines", action="store_true",
                        help="skip the random and AutoMap-style searches")
    parser.add_argument("--no-automap", action="store_true",
                        help="skip the AutoMap-style search")
    parser.add_argument("--random-seeds", action="store_true",
                        help="run random search with every seed (median in "
                        "the table), not only the first")
    parser.add_argument("--no-ilp", action="store_true",
                        help="skip the ILP (algorithm=ilp)")
    parser.add_argument("--ilp-time-limit", type=float, default=600,
                        help="CBC's time limit for the ILP (seconds)")
    parser.add_argument("--dtype", default="bf16",
                        help="toast-models --dtype of the models (the targets "
                        "are bf16 since 2026-11-26; f32 for the older rows)")
    parser.add_argument("--no-experts", action="store_true",
                        help="skip the expert schedules")
    parser.add_argument("--experts-only", action="store_true",
                        help="only the expert schedules: one row each")
    parser.add_argument("--scaling", action="store_true")
    parser.add_argument("--figure10", action="store_true",
                        help="TOAST figure 10: t2b at long sequences on "
                        "{batch, seq, model} meshes (first device)")
    args = parser.parse_args()
    args.models = args.models.split(",")
    args.devices = args.devices.split(",")
    args.seeds = [int(s) for s in args.seeds.split(",")]
    tools = os.path.join(os.path.abspath(args.build), "bin")
    with tempfile.TemporaryDirectory() as directory:
        mode = (scaling if args.scaling else
                figure10 if args.figure10 else targets)
        mode(tools, args, directory)


if __name__ == "__main__":
    main()
