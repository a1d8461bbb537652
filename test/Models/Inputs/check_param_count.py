"""Reads toast-models' statistics line on stdin and checks that the parameter
count is within a tolerance of the expected value.

usage: toast-models NAME -o /dev/null 2>&1 | check_param_count.py EXPECTED [TOL]
"""
import re
import sys

expected = float(sys.argv[1])
tolerance = float(sys.argv[2]) if len(sys.argv) > 2 else 0.10
text = sys.stdin.read()
match = re.search(r"(\d+) parameters", text)
if not match:
    sys.exit("no parameter count in: " + text)
count = int(match.group(1))
error = abs(count / expected - 1.0)
print("%d parameters, expected %.3g: off by %.1f%%" % (count, expected, 100 * error))
if error > tolerance:
    sys.exit("parameter count %d is not within %.0f%% of %.3g"
             % (count, 100 * tolerance, expected))
