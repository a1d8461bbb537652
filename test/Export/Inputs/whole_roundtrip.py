"""Whole-strategy round trip: for a global program with a saved partitioning
state (a schedule or an automatic tactic run with materialize=false), checks
that --partir-export-shardings (scope=all) -> --partir-import-shardings ->
lowering gives the device-local program the direct lowering gives: the same
function signature, the same ops with the same local types, the same
collectives, and the same simulated step time and peak memory.

usage: whole_roundtrip.py TOAST_OPT STATE.mlir FORMAT [FORMAT...]
Prints "ok FORMAT: N ops, M collectives" per format, or the first difference
and exits 1.

usage: whole_roundtrip.py TOAST_OPT --compare A.mlir B.mlir
compares two device-local programs the same way ("ok compare: ...")."""
import json
import re
import subprocess
import sys
import tempfile
import os

LOWER = ["--partir-materialize-core", "--partir-lower-to-hlo",
         "--partir-optimize-collectives"]


def run(cmd, stdin=None):
    proc = subprocess.run(cmd, input=stdin, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), proc.stderr))
    return proc.stdout


def simulate(toast_opt, hlo, path):
    run([toast_opt, "--partir-simulate=json=%s summary=false" % path],
        stdin=hlo)
    with open(path) as f:
        return json.load(f)


def lower_and_simulate(toast_opt, text, prefix, tmp):
    hlo = run([toast_opt] + prefix_passes(prefix) + LOWER, stdin=text)
    return hlo, simulate(toast_opt, hlo, os.path.join(tmp, prefix + ".json"))


def prefix_passes(prefix):
    return [] if prefix == "direct" else ["--partir-import-shardings"]


def normalize(line, axis_names):
    """An op line without SSA names (and, for an mhlo import, with the
    synthesized axis names mapped back)."""
    line = re.sub(r"%[\w#:]+", "%", line).strip()
    line = re.sub(r"loc\(.*\)$", "", line)
    # Annotations the input already carried stay in the direct path only.
    line = re.sub(r'(mhlo|sdy)\.sharding = ("[^"]*"|#sdy[^>]*>)(, )?', "", line)
    line = line.replace(" {}", "")
    for synthesized, original in axis_names.items():
        line = line.replace('"%s"' % synthesized, '"%s"' % original)
    return line


def structure(hlo, axis_names):
    ops = [normalize(l, axis_names) for l in hlo.splitlines()
           if ("=" in l or "return" in l or "func.func" in l)
           and not l.lstrip().startswith(("module", "sdy.mesh"))]
    collectives = [l for l in ops if "partir_hlo." in l]
    return sorted(ops), sorted(collectives)


def mesh_axes(text):
    m = re.search(r"partir\.mesh = #partir\.mesh<\[(.*?)\]>", text)
    return re.findall(r'"(\w+)"=(\d+)', m.group(1)) if m else []


def differences(want_ops, want_coll, direct_sim, got_ops, got_coll, sim):
    problems = []
    if got_ops != want_ops:
        extra = [l[:200] for l in sorted(set(got_ops) - set(want_ops))[:4]]
        missing = [l[:200] for l in sorted(set(want_ops) - set(got_ops))[:4]]
        problems.append("ops differ: extra %s missing %s" % (extra, missing))
    if got_coll != want_coll:
        problems.append("collectives differ")
    for key in ("step_time_s", "comm_bytes", "flops", "collectives"):
        if sim.get(key) != direct_sim.get(key):
            problems.append("%s %s != %s" % (key, sim.get(key),
                                             direct_sim.get(key)))
    return problems


def compare_files(toast_opt, a, b):
    with tempfile.TemporaryDirectory() as tmp:
        texts = [open(a).read(), open(b).read()]
        sims = [simulate(toast_opt, t, os.path.join(tmp, "%d.json" % i))
                for i, t in enumerate(texts)]
        (ops_a, coll_a), (ops_b, coll_b) = [structure(t, {}) for t in texts]
        problems = differences(ops_a, coll_a, sims[0], ops_b, coll_b, sims[1])
        if sims[0].get("peak_memory_bytes") != sims[1].get(
                "peak_memory_bytes"):
            problems.append("peak memory differs")
    if problems:
        print("MISMATCH compare: %s" % "; ".join(problems))
        sys.exit(1)
    print("ok compare: %d ops, %d collectives" % (len(ops_a), len(coll_a)))


def main():
    if sys.argv[2] == "--compare":
        return compare_files(sys.argv[1], sys.argv[3], sys.argv[4])
    toast_opt, state_path, formats = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(state_path) as f:
        state = f.read()
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        direct, direct_sim = lower_and_simulate(toast_opt, state, "direct",
                                                tmp)
        original_axes = mesh_axes(direct)
        want_ops, want_coll = structure(direct, {})
        for fmt in formats:
            exported = run([toast_opt,
                            "--partir-export-shardings=format=%s" % fmt],
                           stdin=state)
            if fmt == "mhlo":
                # HloSharding strings name devices, not axes: the user
                # gives the mesh (else the import synthesizes the coarsest).
                mesh = re.search(r"partir\.mesh = #partir\.mesh<[^>]*>",
                                 state).group(0)
                exported = re.sub(r"^(module[^{\n]*attributes \{)",
                                  lambda m: m.group(1) + mesh + ", ",
                                  exported, count=1, flags=re.M)
            hlo, sim = lower_and_simulate(toast_opt, exported, fmt, tmp)
            # An mhlo-only import synthesizes axis names; sizes must match.
            axes = mesh_axes(hlo)
            names = {}
            if [s for _, s in axes] == [s for _, s in original_axes]:
                names = {a: o for (a, _), (o, _) in zip(axes, original_axes)}
            got_ops, got_coll = structure(hlo, names)
            problems = []
            if [s for _, s in axes] != [s for _, s in original_axes]:
                problems.append("mesh %s != %s" % (axes, original_axes))
            problems += differences(want_ops, want_coll, direct_sim, got_ops,
                                    got_coll, sim)
            # The order of an op's loops over axes of different dimensions
            # is not part of a sharding: where it differs, a collective
            # can sit elsewhere in a loop body (same ops, same step time)
            # and the peak memory can differ.
            note = ""
            if sim.get("peak_memory_bytes") != direct_sim.get(
                    "peak_memory_bytes"):
                note = " (peak memory %s, direct %s)" % (
                    sim.get("peak_memory_bytes"),
                    direct_sim.get("peak_memory_bytes"))
            if problems:
                failed = True
                print("MISMATCH %s: %s" % (fmt, "; ".join(problems)))
            else:
                print("ok %s: %d ops, %d collectives%s" % (
                    fmt, len(got_ops), len(got_coll), note))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
