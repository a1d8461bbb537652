#!/usr/bin/env python3
# ===- mutate_corpus.py - Robustness test of toast-opt on broken inputs ---=== #
#
# ===----------------------------------------------------------------------=== #
"""Robustness test: toast-opt must never crash on broken inputs.

Takes every model in <corpus>/models/*.mlir and derives variants from it:
truncations at evenly spaced byte offsets, and seeded, deterministic mutations
of its text and of its generic form (`--mlir-print-op-generic`): delete a
token or line, duplicate or swap lines, swap characters or words, replace a
number with a huge or negative one, change an element type or a shape (in one
place, or everywhere so that SSA types stay consistent and the op verifiers
see the change), drop a closing bracket, insert garbage, use the wrong SSA
value, rename an op, drop or corrupt an attribute, drop or add an operand.
The checked-in cases in Inputs/*.mlir (split on `// -----`) run as they are.

Each variant goes through toast-opt (from a temp file, with a timeout):
  * ending by a signal (abort, segfault, ...) or printing an LLVM crash
    banner is a CRASH, exceeding the timeout a HANG;
  * exit 0 must print something (the module); exit != 0 must print a
    diagnostic containing "error";
  * unless --no-roundtrip, the output of an accepted variant must itself be
    accepted again (a printer/parser mismatch is a failure too).

Prints a summary line, the reproducer command and stack top of each failure,
and keeps the failing inputs in a temp directory that it names.

Exit status: 0 pass, 1 failure, 2 bad usage, 77 skipped because the corpus
is absent (a failure instead when the environment has CI=true).
Standard library only; the same corpus, seed and limits give the same
variants.
"""

import argparse
import concurrent.futures
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import zlib

SKIP = 77

# Integers that stress size computations, index checks and APInt parsing.
NASTY_NUMBERS = [
    "-1", "0", "-7", "65536", "2147483647", "2147483648", "4294967296",
    "9223372036854775807", "9223372036854775808", "-9223372036854775809",
    "18446744073709551616", "99999999999999999999999999999999",
]

# Element-type replacements (from, to).
TYPE_SWAPS = [
    ("f32", "i1"), ("f32", "i32"), ("f32", "f16"), ("f32", "bf16"),
    ("f32", "f64"), ("f32", "index"), ("f32", "complex<f32>"), ("f32", "ui8"),
    ("f32", "!stablehlo.token"), ("i32", "f32"), ("i32", "i64"), ("i1", "f32"),
    ("i64", "i1"), ("i32", "i0"),
]

GARBAGE = [
    b"}", b"{", b")", b"(", b"%", b"%0", b"^bb0:", b"\"", b"#", b"!", b"@",
    b"<", b">", b"[[[", b"]]]", b",", b":", b"->", b"=", b"x", b"?", b"*",
    b"0x", b"dense<", b"\x00", b"\xff\xfe", b"\xc3\xa9", b"stablehlo.add",
    b"func.func @x() {", b"tensor<", b"tensor<?x?xf32>", b"tensor<*xf32>",
    b"#stablehlo.", b"// comment\n", b"\n", b"loc(", b"{-#", b"\"\\",
    b"1e999999", b"-0x", b"dense_resource<", b"^bb1", b"%arg0",
]

# Op names of each kind; replacing one with another of a different arity or
# attribute set exercises custom parsers and verifiers.
OP_NAMES = [
    "add", "multiply", "subtract", "divide", "maximum", "abs", "negate",
    "exponential", "rsqrt", "transpose", "reshape", "broadcast_in_dim",
    "dot_general", "reduce", "compare", "select", "convert", "constant",
    "gather", "concatenate", "slice", "dynamic_slice", "iota", "convolution",
    "reduce_window", "return", "not", "and", "or", "tanh", "logistic",
]

NUM_RE = re.compile(rb"(?<![%#@A-Za-z_.])-?\d+")
SHAPE_DIM_RE = re.compile(rb"(?<=[<x])\d+(?=x)")
TOKEN_RE = re.compile(rb"\S+")
LIST_RE = re.compile(rb"\[[-\d, ]*\]")
SSA_RE = re.compile(rb"%[A-Za-z_0-9]+")
OP_RE = re.compile(rb"stablehlo\.([a-z_]+)")
ELTYPE_RE = re.compile(rb"\b(f32|f16|bf16|f64|i1|i8|i32|i64|ui32)\b")


def stable_seed(*parts):
    return zlib.crc32("/".join(str(p) for p in parts).encode())


# --- Mutators: each takes (data: bytes, rng) and returns (bytes, desc) ------


def _pick(rng, matches):
    return matches[rng.randrange(len(matches))] if matches else None


def _splice(data, start, end, repl):
    return data[:start] + repl + data[end:]


def mut_delete_token(data, rng):
    m = _pick(rng, list(TOKEN_RE.finditer(data)))
    return _splice(data, m.start(), m.end(), b""), \
        "delete token %r at %d" % (m.group()[:40], m.start())


def mut_duplicate_line(data, rng):
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines), "duplicate line %d" % (i + 1)


def mut_delete_line(data, rng):
    lines = data.split(b"\n")
    i = rng.randrange(len(lines))
    del lines[i]
    return b"\n".join(lines), "delete line %d" % (i + 1)


def mut_swap_lines(data, rng):
    lines = data.split(b"\n")
    i = rng.randrange(len(lines) - 1)
    lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return b"\n".join(lines), "swap lines %d and %d" % (i + 1, i + 2)


def mut_swap_chars(data, rng):
    i = rng.randrange(len(data) - 1)
    b = bytearray(data)
    b[i], b[i + 1] = b[i + 1], b[i]
    return bytes(b), "swap chars at %d" % i


def mut_number(data, rng):
    m = _pick(rng, list(NUM_RE.finditer(data)))
    new = rng.choice(NASTY_NUMBERS).encode()
    return _splice(data, m.start(), m.end(), new), \
        "number %r -> %r at %d" % (m.group(), new, m.start())


def mut_list_number(data, rng):
    # A number inside an attribute list such as `dims = [0, 2, 1]`,
    # `contracting_dims = [1] x [0]`, `broadcast_dimensions = [...]`.
    lists = [m for m in LIST_RE.finditer(data) if re.search(rb"\d", m.group())]
    m = _pick(rng, lists)
    if m is None:
        return mut_number(data, rng)
    nums = list(re.finditer(rb"-?\d+", m.group()))
    n = _pick(rng, nums)
    new = rng.choice([b"-1", b"1", b"2", b"3", b"7", b"64",
                      b"9223372036854775807", b"-9223372036854775808"])
    start = m.start() + n.start()
    return _splice(data, start, m.start() + n.end(), new), \
        "list number %r -> %r at %d" % (n.group(), new, start)


def mut_list_shape(data, rng):
    # Add, drop or duplicate an element of an attribute list.
    lists = [m for m in LIST_RE.finditer(data) if re.search(rb"\d", m.group())]
    m = _pick(rng, lists)
    if m is None:
        return mut_number(data, rng)
    items = [x.strip() for x in m.group()[1:-1].split(b",") if x.strip()]
    choice = rng.randrange(4)
    if choice == 0 and items:
        del items[rng.randrange(len(items))]
    elif choice == 1 and items:
        items.insert(rng.randrange(len(items) + 1), rng.choice(items))
    elif choice == 2:
        items.append(str(len(items)).encode())
    else:
        rng.shuffle(items)
        items = items[::-1] if len(items) > 1 else items + [b"0"]
    new = b"[" + b", ".join(items) + b"]"
    return _splice(data, m.start(), m.end(), new), \
        "list %r -> %r at %d" % (m.group()[:40], new[:40], m.start())


def mut_shape_dim(data, rng):
    m = _pick(rng, list(SHAPE_DIM_RE.finditer(data)))
    if m is None:
        return mut_number(data, rng)
    old = int(m.group())
    new = rng.choice([old + 1, max(old - 1, 0), 0, 1, old * 2,
                      "?", 4611686018427387904])
    new = str(new).encode()
    return _splice(data, m.start(), m.end(), new), \
        "shape dim %r -> %r at %d" % (m.group(), new, m.start())


def mut_shape_rank(data, rng):
    # Add or drop a dimension in a tensor type.
    ms = list(re.finditer(rb"tensor<((?:\d+x)*)", data))
    m = _pick(rng, ms)
    dims = m.group(1)
    if dims and rng.random() < 0.5:
        new = b"tensor<" + dims[dims.index(b"x") + 1:]
    else:
        new = b"tensor<" + dims + rng.choice([b"1x", b"3x", b"?x"])
    return _splice(data, m.start(), m.end(), new), \
        "rank change %r -> %r at %d" % (m.group(), new, m.start())


def mut_eltype(data, rng):
    ms = list(ELTYPE_RE.finditer(data))
    m = _pick(rng, ms)
    old = m.group().decode()
    cands = [t for f, t in TYPE_SWAPS if f == old] or ["i1", "f32", "i64"]
    new = rng.choice(cands).encode()
    return _splice(data, m.start(), m.end(), new), \
        "type %r -> %r at %d" % (m.group(), new, m.start())


def mut_drop_close(data, rng):
    idx = [i for i, c in enumerate(data) if c in b"})]>"]
    i = rng.choice(idx)
    return data[:i] + data[i + 1:], "drop %r at %d" % (chr(data[i]), i)


def mut_garbage(data, rng):
    i = rng.randrange(len(data) + 1)
    if rng.random() < 0.8:
        g = rng.choice(GARBAGE)
    else:
        g = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 9)))
    return data[:i] + g + data[i:], "insert %r at %d" % (g, i)


def mut_ssa(data, rng):
    # Use the wrong value (possibly undefined, or defined later).
    ms = list(SSA_RE.finditer(data))
    m = _pick(rng, ms)
    other = rng.choice(ms).group() if rng.random() < 0.7 else b"%undefined"
    return _splice(data, m.start(), m.end(), other), \
        "ssa %r -> %r at %d" % (m.group(), other, m.start())


def mut_opname(data, rng):
    ms = list(OP_RE.finditer(data))
    m = _pick(rng, ms)
    if m is None:
        return mut_delete_token(data, rng)
    new = b"stablehlo." + rng.choice(OP_NAMES).encode()
    return _splice(data, m.start(), m.end(), new), \
        "op %r -> %r at %d" % (m.group(), new, m.start())


TENSOR_TYPE_RE = re.compile(rb"tensor<[^<>]*>")
WORD_RE = re.compile(rb"[A-Za-z0-9_.]+")
ATTR_KEY_RE = re.compile(rb"(?<=[{ ])([a-z_]+) = ")
ARRAY_RE = re.compile(rb"array<i64(?:: [-\d, ]*)?>")
GENERIC_OP_RE = re.compile(
    rb'"[a-z]+\.[a-z_]+"\(([^()]*)\)(.*) : \(([^()]*)\) -> ')

ATTR_VALUES = [
    b"42 : i64", b"-1 : i64", b"array<i64>", b"array<i64: 0>",
    b"array<i64: -1, 9223372036854775807>", b"\"str\"", b"unit", b"true",
    b"dense<1> : tensor<2xi64>", b"dense<[[0, 0], [1, 1]]> : tensor<2x2xi64>",
    b"[1, 2]", b"#stablehlo<comparison_direction EQ>",
    b"#stablehlo<comparison_type SIGNED>", b"@main", b"f32", b"{}",
    b"#stablehlo.dot<lhs_batching_dimensions = [0], "
    b"rhs_batching_dimensions = [5]>",
]


def _value_end(data, i):
    """End of the attribute value that starts at `i` (balanced brackets)."""
    depth = 0
    in_str = False
    while i < len(data):
        c = data[i:i + 1]
        if in_str:
            if c == b"\\":
                i += 1
            elif c == b'"':
                in_str = False
        elif c == b'"':
            in_str = True
        elif c in b"<[({":
            depth += 1
        elif c in b">])}":
            if depth == 0:
                return i
            depth -= 1
        elif c == b"," and depth == 0:
            return i
        i += 1
    return i


def mut_global_type(data, rng):
    # Rewrite every occurrence of one tensor type, so SSA uses stay
    # consistent and the op verifiers (not the parser) see the change.
    types = sorted(set(m.group() for m in TENSOR_TYPE_RE.finditer(data)))
    old = rng.choice(types)
    body = old[len(b"tensor<"):-1]
    parts = body.split(b"x")
    kind = rng.randrange(6)
    if kind == 4 and len(parts) > 1:
        # Dynamic extent.
        parts[rng.randrange(len(parts) - 1)] = b"?"
    elif kind == 5:
        # Unranked.
        parts = [b"*", parts[-1]]
    elif kind == 0 and len(parts) > 1:
        i = rng.randrange(len(parts) - 1)
        parts[i] = str(int(parts[i]) + 1).encode() if parts[i].isdigit() \
            else b"3"
    elif kind == 1 and len(parts) > 1:
        del parts[rng.randrange(len(parts) - 1)]
    elif kind == 2:
        parts.insert(rng.randrange(len(parts)), rng.choice([b"1", b"2"]))
    else:
        parts[-1] = rng.choice([b"i1", b"i32", b"f16", b"ui8", b"f64"])
    new = b"tensor<" + b"x".join(parts) + b">"
    return data.replace(old, new), "all %r -> %r" % (old, new)


def mut_global_dim(data, rng):
    # Change one extent in every tensor type (e.g. all 768 -> 769).
    dims = sorted(set(m.group() for m in SHAPE_DIM_RE.finditer(data)))
    if not dims:
        return mut_global_type(data, rng)
    old = rng.choice(dims)
    new = str(int(old) + rng.choice([1, -1, 7])).encode()
    pat = re.compile(rb"(?<=[<x])" + old + rb"(?=x)")
    return pat.sub(new, data), "all shape dims %r -> %r" % (old, new)


def mut_swap_words(data, rng):
    # Swap two words on one line: operands, dims, keywords, letters of
    # convolution dim_numbers ...
    lines = data.split(b"\n")
    for _ in range(20):
        i = rng.randrange(len(lines))
        ws = list(WORD_RE.finditer(lines[i]))
        if len(ws) >= 2:
            break
    else:
        return mut_swap_chars(data, rng)
    a, b = sorted(rng.sample(range(len(ws)), 2))
    wa, wb = ws[a], ws[b]
    line = lines[i]
    lines[i] = (line[:wa.start()] + wb.group() + line[wa.end():wb.start()] +
                wa.group() + line[wb.end():])
    return b"\n".join(lines), "line %d: swap %r and %r" % (
        i + 1, wa.group()[:30], wb.group()[:30])


def mut_attr_drop(data, rng):
    # Delete one `key = value` entry from an attribute/property dictionary.
    m = _pick(rng, list(ATTR_KEY_RE.finditer(data)))
    if m is None:
        return mut_delete_token(data, rng)
    end = _value_end(data, m.end())
    start = m.start()
    if data[end:end + 2] == b", ":
        end += 2
    elif data[start - 2:start] == b", ":
        start -= 2
    return data[:start] + data[end:], "drop attribute %r at %d" % (
        m.group(1), m.start())


def mut_attr_value(data, rng):
    # Give one attribute a value of the wrong kind or out of range.
    m = _pick(rng, list(ATTR_KEY_RE.finditer(data)))
    if m is None:
        return mut_number(data, rng)
    end = _value_end(data, m.end())
    new = rng.choice(ATTR_VALUES)
    return _splice(data, m.end(), end, new), "attribute %r = %r at %d" % (
        m.group(1), new, m.start())


def mut_array(data, rng):
    # Mutate a dense i64 array (dimensions, permutation, strides, ...).
    m = _pick(rng, list(ARRAY_RE.finditer(data)))
    if m is None:
        return mut_list_shape(data, rng)
    body = m.group()[len(b"array<i64"):-1].lstrip(b": ")
    items = [x.strip() for x in body.split(b",") if x.strip()]
    k = rng.randrange(4)
    if k == 0 and items:
        del items[rng.randrange(len(items))]
    elif k == 1:
        items.append(rng.choice([b"0", b"1", b"-1", b"99"]))
    elif k == 2 and items:
        items[rng.randrange(len(items))] = rng.choice(
            [b"-1", b"-2", b"1000000", b"9223372036854775807"])
    elif items:
        j = rng.randrange(len(items))
        items[j] = items[(j + 1) % len(items)]
    new = b"array<i64" + (b": " + b", ".join(items) if items else b"") + b">"
    return _splice(data, m.start(), m.end(), new), "%r -> %r at %d" % (
        m.group()[:40], new[:40], m.start())


def mut_operand_count(data, rng):
    # Generic form: drop or duplicate an operand together with its type, so
    # that the parser accepts it and the op verifier must reject it.
    ms = list(GENERIC_OP_RE.finditer(data))
    m = _pick(rng, ms)
    if m is None:
        return mut_ssa(data, rng)
    ops = [x for x in m.group(1).split(b", ") if x]
    tys = [x for x in m.group(3).split(b", ") if x]
    if len(ops) != len(tys):
        return mut_ssa(data, rng)
    if ops and rng.random() < 0.5:
        j = rng.randrange(len(ops))
        del ops[j], tys[j]
        what = "drop operand %d" % j
    elif ops:
        j = rng.randrange(len(ops))
        ops.append(ops[j])
        tys.append(tys[j])
        what = "add operand copy of %d" % j
    else:
        return mut_ssa(data, rng)
    text = m.group()
    head = text[:text.index(b"(") + 1]
    new = head + b", ".join(ops) + b")" + m.group(2) + b" : (" + \
        b", ".join(tys) + b") -> "
    return _splice(data, m.start(), m.end(), new), "%s at %d" % (
        what, m.start())


MUTATORS = [
    mut_delete_token, mut_duplicate_line, mut_delete_line, mut_swap_lines,
    mut_swap_chars, mut_number, mut_list_number, mut_list_shape,
    mut_shape_dim, mut_shape_rank, mut_eltype, mut_drop_close, mut_garbage,
    mut_ssa, mut_opname, mut_global_type, mut_global_dim, mut_swap_words,
    mut_attr_drop, mut_attr_value,
]

# For the generic form (`"stablehlo.add"(%0, %1) <{...}> : ...`), where the
# custom parsers are bypassed and the verifiers see whatever is written.
GENERIC_MUTATORS = [
    mut_attr_drop, mut_attr_value, mut_array, mut_operand_count,
    mut_global_type, mut_global_dim, mut_swap_words, mut_number,
    mut_list_number, mut_eltype, mut_opname, mut_delete_token,
]


def make_variants(name, data, generic, n_trunc, n_mut, n_gen, seed):
    """Returns [(variant_id, description, bytes)]."""
    out = []
    # Truncations at evenly spaced byte offsets (not including 0 and len).
    for k in range(1, n_trunc + 1):
        off = len(data) * k // (n_trunc + 1)
        out.append(("trunc%03d" % k, "truncate at byte %d of %d" %
                    (off, len(data)), data[:off]))
    for prefix, base, muts, count in (("mut", data, MUTATORS, n_mut),
                                      ("gen", generic, GENERIC_MUTATORS,
                                       n_gen)):
        if not base:
            continue
        rng = random.Random(stable_seed(seed, name, prefix))
        for k in range(count):
            mut = muts[k % len(muts)]
            new, desc = mut(base, rng)
            # Stack a second mutation now and then.
            if k % 7 == 6:
                mut2 = rng.choice(muts)
                new, desc2 = mut2(new, rng)
                desc += "; " + mut2.__name__[4:] + ": " + desc2
            out.append(("%s%03d" % (prefix, k),
                        mut.__name__[4:] + ": " + desc, new))
    return out


# --- Running ----------------------------------------------------------------

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump:", "LLVM ERROR",
                 "Assertion `", "UNREACHABLE executed", "AddressSanitizer",
                 "terminate called")


def run_tool(toast_opt, path, timeout, extra=()):
    cmd = [toast_opt, *extra, path]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return cmd, None, b"", b"", time.monotonic() - start
    return cmd, p.returncode, p.stdout, p.stderr, time.monotonic() - start


def classify(rc, out, err):
    """Returns (kind, reason); kind in accepted/rejected/crash/hang/bad."""
    text = (out + err).decode("utf-8", "replace")
    if rc is None:
        return "hang", "timed out"
    if rc < 0:
        return "crash", "killed by signal %d" % -rc
    for marker in CRASH_MARKERS:
        if marker in text:
            return "crash", "crash banner %r (exit %d)" % (marker, rc)
    if rc == 0:
        if not out.strip():
            return "bad", "exit 0 with no output"
        return "accepted", ""
    if "error" not in text.lower():
        return "bad", "exit %d without an error diagnostic" % rc
    return "rejected", ""


def check_variant(args, workdir, model, vid, desc, data):
    path = os.path.join(workdir, "%s.%s.mlir" % (model.replace("/", "_"), vid))
    with open(path, "wb") as f:
        f.write(data)
    cmd, rc, out, err, secs = run_tool(args.toast_opt, path, args.timeout)
    kind, reason = classify(rc, out, err)
    if kind == "accepted" and args.roundtrip:
        rt_path = path + ".out.mlir"
        with open(rt_path, "wb") as f:
            f.write(out)
        rt_cmd, rc2, out2, err2, _ = run_tool(args.toast_opt, rt_path,
                                              args.timeout)
        kind2, reason2 = classify(rc2, out2, err2)
        if kind2 != "accepted":
            kind = "crash" if kind2 in ("crash", "hang") else "roundtrip"
            reason = "printed output not re-accepted: %s %s" % (
                kind2, reason2 or err2.decode("utf-8", "replace")[:300])
            cmd, err = rt_cmd, err2
        else:
            os.unlink(rt_path)
    return dict(model=model, vid=vid, desc=desc, path=path, cmd=cmd,
                kind=kind, reason=reason, secs=secs,
                err=err.decode("utf-8", "replace"))


def stack_top(err, n=8):
    lines = [l for l in err.splitlines() if re.match(r"\s*#\d+ ", l)]
    return lines[:n] if lines else err.strip().splitlines()[-n:]


def main():
    ap = argparse.ArgumentParser(
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--toast-opt", required=True)
    ap.add_argument("--corpus", required=True,
                    help="corpus folder holding models/*.mlir")
    ap.add_argument("--truncations", type=int, default=30,
                    help="truncation offsets per model")
    ap.add_argument("--mutations", type=int, default=120,
                    help="seeded mutations of each model's source")
    ap.add_argument("--generic-mutations", type=int, default=60,
                    help="seeded mutations of each model's generic form")
    ap.add_argument("--seed", type=int, default=20240607)
    ap.add_argument("--timeout", type=float, default=30.0,
                    help="seconds per toast-opt run")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--no-roundtrip", dest="roundtrip", action="store_false",
                    help="don't re-parse the output of accepted variants")
    ap.add_argument("--keep", action="store_true",
                    help="keep every variant, not only failing ones")
    ap.add_argument("--inputs", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "Inputs"),
        help="folder of checked-in .mlir cases (split on '// -----')")
    ap.add_argument("--only", default=None,
                    help="regex: only models whose file name matches")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args()

    if not os.access(args.toast_opt, os.X_OK):
        print("robustness: toast-opt not executable: %r" % args.toast_opt)
        return 2

    ci = os.environ.get("CI", "").lower() == "true"
    models_dir = os.path.join(args.corpus, "models")
    models = sorted(f for f in os.listdir(models_dir)
                    if f.endswith(".mlir")) if os.path.isdir(models_dir) else []
    if args.only:
        models = [m for m in models if re.search(args.only, m)]
    missing_corpus = not models
    if missing_corpus:
        print("robustness: no corpus models found in %r (set TOAST_CORPUS_DIR)"
              % models_dir)
        if ci:
            print("robustness: FAIL: CI=true and the corpus is required")
            return 1

    workdir = tempfile.mkdtemp(prefix="toast-robustness-")
    jobs = []
    # Checked-in inputs (past crashes, verifier edge cases) run as they are,
    # one job per `// -----` chunk, with or without the corpus.
    inputs = sorted(f for f in os.listdir(args.inputs)
                    if f.endswith(".mlir")) if os.path.isdir(args.inputs) \
        else []
    for f in inputs:
        with open(os.path.join(args.inputs, f), "rb") as fh:
            chunks = re.split(rb"(?m)^// -----.*\n", fh.read())
        for k, chunk in enumerate(chunks):
            first = next((l for l in chunk.split(b"\n")
                          if l.strip() and not l.lstrip().startswith(
                              (b"//", b"func.func", b"module"))), b"")
            jobs.append(("Inputs/" + f[:-len(".mlir")], "case%03d" % k,
                         "checked-in case: %s" % first.strip()[:80].decode(
                             "utf-8", "replace"), chunk))
    baseline_failures = []
    for m in models:
        with open(os.path.join(models_dir, m), "rb") as f:
            data = f.read()
        name = m[:-len(".mlir")]
        # The model itself must be accepted; its generic form is a second
        # base for mutations.
        cmd, rc, out, err, _ = run_tool(args.toast_opt, os.path.join(
            models_dir, m), args.timeout, ["--mlir-print-op-generic"])
        kind, reason = classify(rc, out, err)
        if kind != "accepted":
            baseline_failures.append("%s: %s %s\n%s" % (
                m, kind, reason, err.decode("utf-8", "replace")[:2000]))
            out = b""
        for vid, desc, var in make_variants(name, data, out, args.truncations,
                                            args.mutations,
                                            args.generic_mutations, args.seed):
            jobs.append((name, vid, desc, var))

    start = time.monotonic()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futs = [pool.submit(check_variant, args, workdir, *j) for j in jobs]
        for fut in futs:
            r = fut.result()
            results.append(r)
            if args.verbose:
                print("%-9s %-28s %-8s %5.2fs %s" % (
                    r["kind"], r["model"], r["vid"], r["secs"], r["desc"]))
    elapsed = time.monotonic() - start

    counts = {}
    for r in results:
        counts[r["kind"]] = counts.get(r["kind"], 0) + 1
    failures = [r for r in results if r["kind"] not in ("accepted", "rejected")]

    for r in results:
        if r not in failures and not args.keep:
            os.unlink(r["path"])

    for b in baseline_failures:
        print("\n=== BASELINE: unmodified model not accepted: %s" % b)

    for r in failures:
        print("\n=== %s: %s %s (%s)" % (r["kind"].upper(), r["model"], r["vid"],
                                       r["reason"]))
        print("mutation: %s" % r["desc"])
        print("reproduce: %s" % " ".join(shlex.quote(c) for c in r["cmd"]))
        for line in stack_top(r["err"]):
            print("    " + line)

    print("\nrobustness: %d variants (%d models, %d checked-in inputs) run "
          "in %.1fs: %d accepted, %d rejected, %d crashed, %d hung, "
          "%d bad exit, %d roundtrip failures" % (
              len(results), len(models), len(inputs), elapsed,
              counts.get("accepted", 0),
              counts.get("rejected", 0), counts.get("crash", 0),
              counts.get("hang", 0), counts.get("bad", 0),
              counts.get("roundtrip", 0)))
    if failures or baseline_failures:
        print("robustness: FAIL: %d failing inputs saved in %s" %
              (len(failures), workdir))
        return 1
    if args.keep:
        print("robustness: variants kept in %s" % workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    if missing_corpus:
        print("robustness: SKIPPED (no corpus; only checked-in inputs ran)")
        return SKIP
    print("robustness: PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
