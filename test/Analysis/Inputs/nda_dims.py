"""Lists the dimension names of a --toast-nda JSON report, one per line:

    <at> <color> n<node>[ blocked]

in name order (program order), so FileCheck can check that names share a
color or a node. Usage: nda_dims.py REPORT
"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        report = json.load(f)
    dims = [(d["name"], d["at"], c["name"], d["node"], d.get("blocked", False))
            for c in report["colors"] for d in c["dims"]]
    for _, at, color, node, blocked in sorted(dims):
        print("%s %s n%d%s" % (at, color, node, " blocked" if blocked else ""))


if __name__ == "__main__":
    main()
