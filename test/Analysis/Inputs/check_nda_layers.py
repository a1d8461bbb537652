"""Repeated layers (TOAST sections 3.6, 4.4): given NDA reports of the same
transformer with increasing layer counts, checks that the number of
independent resolution bits does not grow, and that the parameters of
corresponding layers (params.layer_<i>.<rest>) are in one argument group.
"""
import json
import re
import sys

reports = [json.load(open(p)) for p in sys.argv[1:]]
bits = [r["num_resolution_bits"] for r in reports]
if len(set(bits)) != 1:
    print("FAIL: resolution bits grow with layers: %s" % bits)
    sys.exit(1)
layer = re.compile(r"^(params|opt_state\.\w+)\.layer_(\d+)\.(.*)$")
for r in reports:
    group_of = {}
    for gi, g in enumerate(r["argument_groups"]):
        for n in g["names"]:
            group_of[n] = gi
    by_key = {}
    for n, gi in group_of.items():
        m = layer.match(n)
        if m:
            by_key.setdefault((m.group(1), m.group(3)), set()).add(gi)
    split = [k for k, gs in by_key.items() if len(gs) != 1]
    if split:
        print("FAIL: layers of %s are in different groups" % (split[:3],))
        sys.exit(1)
print("OK bits=%s sets=%s conflicts=%s groups=%s" % (
    bits, [r["num_compatibility_sets"] for r in reports],
    [r["num_conflicts"] for r in reports],
    [len(r["argument_groups"]) for r in reports]))
