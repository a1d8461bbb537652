"""Usage: step_time_at_most.py FOUND.json REFERENCE.json

Checks that the simulated step time in FOUND (a --partir-simulate JSON
report) is at most REFERENCE's (with a relative slack for rounding) and
prints both."""
import json
import sys

found = json.load(open(sys.argv[1]))["step_time_s"]
reference = json.load(open(sys.argv[2]))["step_time_s"]
verdict = "ok" if found <= reference * (1 + 1e-9) else "WORSE"
print(f"step {found:.6g} s vs {reference:.6g} s: {verdict}")
sys.exit(0 if verdict == "ok" else 1)
