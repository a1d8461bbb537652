"""Checks that a --toast-nda JSON report is valid and self-consistent.

Usage: check_nda_json.py REPORT [--conflicts N] [--sets N] [--bits N]
                                [--colors N]
Prints "OK <counts>" on success, exits 1 with a message otherwise.
"""
import argparse
import json
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("report")
    for key in ("conflicts", "sets", "bits", "colors"):
        p.add_argument("--" + key, type=int)
    args = p.parse_args()
    with open(args.report) as f:
        r = json.load(f)

    colors, conflicts, sets = r["colors"], r["conflicts"], r["compatibility_sets"]
    if r["num_colors"] != len(colors):
        fail("num_colors != len(colors)")
    if r["num_conflicts"] != len(conflicts):
        fail("num_conflicts != len(conflicts)")
    if r["num_compatibility_sets"] != len(sets):
        fail("num_compatibility_sets != len(compatibility_sets)")
    if r["num_def_dims"] + r["num_use_dims"] != r["num_names"]:
        fail("def + use dims != names")

    # Every dimension name is in exactly one color; nodes do not straddle.
    seen = [0] * r["num_names"]
    node_color = {}
    for c in colors:
        for d in c["dims"]:
            seen[d["name"]] += 1
            if node_color.setdefault(d["node"], c["id"]) != c["id"]:
                fail("node %d in two colors" % d["node"])
    if any(s != 1 for s in seen):
        fail("a dimension is in %s colors" % sorted(set(seen)))
    if len(node_color) != r["num_nodes"]:
        fail("num_nodes != nodes listed")

    # Conflicts: two nodes of their color, in exactly one set.
    in_set = [0] * len(conflicts)
    for s in sets:
        if not 0 <= s["bit"] < max(r["num_resolution_bits"], 1):
            fail("set %d has bit %d" % (s["id"], s["bit"]))
        for k in s["conflicts"]:
            in_set[k] += 1
            if conflicts[k]["set"] != s["id"]:
                fail("conflict %d: set mismatch" % k)
        for res in ("resolution_0", "resolution_1"):
            for k, node in zip(s["conflicts"], s[res]):
                if node not in conflicts[k]["nodes"]:
                    fail("resolution picks a node outside conflict %d" % k)
    if any(n != 1 for n in in_set):
        fail("a conflict is not in exactly one set")
    for k in conflicts:
        x, y = k["nodes"]
        if x == y or node_color[x] != k["color"] or node_color[y] != k["color"]:
            fail("conflict %d is not two nodes of its color" % k["id"])
        if k["id"] not in colors[k["color"]]["conflicts"]:
            fail("color %d does not list conflict %d" % (k["color"], k["id"]))
    bits = {s["bit"] for s in sets}
    if bits != set(range(r["num_resolution_bits"])):
        fail("resolution bits are not 0..%d" % (r["num_resolution_bits"] - 1))

    # Argument groups partition the arguments.
    arg_list = sorted(x for g in r["argument_groups"] for x in g["args"])
    if arg_list != list(range(len(arg_list))):
        fail("argument groups do not partition the arguments")

    for key, name in (("conflicts", "num_conflicts"),
                      ("sets", "num_compatibility_sets"),
                      ("bits", "num_resolution_bits"),
                      ("colors", "num_colors")):
        want = getattr(args, key)
        if want is not None and r[name] != want:
            fail("%s = %d, expected %d" % (name, r[name], want))
    print("OK names=%d nodes=%d colors=%d conflicts=%d sets=%d bits=%d "
          "groups=%d" % (r["num_names"], r["num_nodes"], r["num_colors"],
                         r["num_conflicts"], len(sets),
                         r["num_resolution_bits"], len(r["argument_groups"])))


if __name__ == "__main__":
    main()
