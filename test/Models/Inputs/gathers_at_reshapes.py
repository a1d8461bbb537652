"""Reads a PartIR:HLO module on stdin and prints how many all_gathers feed a
stablehlo.reshape directly (a flatten that gathers its operand) and how many
all_to_alls the module has:  gathers-at-reshapes=<n> all_to_all=<m>."""
import re
import sys

text = sys.stdin.read()
gathered = set(re.findall(r"(%[\w#]+) = partir_hlo\.all_gather\b", text))
operands = re.findall(r"= stablehlo\.reshape (%[\w#]+)", text)
print("gathers-at-reshapes=%d all_to_all=%d" % (
    sum(1 for v in operands if v in gathered),
    len(re.findall(r"\bpartir_hlo\.all_to_all\b", text))))
