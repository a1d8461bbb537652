"""Counts PartIR:HLO collectives in the module on stdin and prints one line:
AG=<all_gather> AR=<all_reduce> RS=<reduce_scatter> A2A=<all_to_all>
(the columns of PartIR's Table 2)."""
import re
import sys

text = sys.stdin.read()
counts = {}
for kind in ("all_gather", "all_reduce", "reduce_scatter", "all_to_all"):
    counts[kind] = len(re.findall(r"\bpartir_hlo\.%s\b" % kind, text))
print("AG=%(all_gather)d AR=%(all_reduce)d RS=%(reduce_scatter)d "
      "A2A=%(all_to_all)d" % counts)
