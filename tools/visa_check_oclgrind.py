#!/usr/bin/env python3
"""`gpukit visa run --check` on Oclgrind's own test kernels for its checks.

usage: visa_check_oclgrind.py OCLGRIND_TESTS_KERNELS_DIR [--gpukit PATH] [--work DIR]
                              [--ocloc PATH] [--device tgllp]

For each test of the data-race, uninitialized, barrier and atomics (races) directories,
and every test using async copies (async_work_group_copy, wait_group_events, prefetch:
async_copy, wait_event, memcheck): compiles the .cl with ocloc into WORK (Oclgrind's
files are read there, never copied into this repository), builds the arguments its
.sim file describes, runs gpukit with --check --json, and compares the finding kinds
with the ERROR lines of its .ref file, and (clean tests) the buffer values of its EXACT
lines. Prints
a table: same finding, missed, extra, wrong values, not compiled (with ocloc's reason),
or not comparable (with the reason); a miss KNOWN explains is marked so, with why.
"""
import argparse, glob, json, os, re, shutil, struct, subprocess, sys

SETS = ("data-race", "uninitialized", "barrier", "atomics")
# Tests of these builtins are taken from every directory.
ASYNC = re.compile(r"async_work_group(_strided)?_copy|wait_group_events|prefetch")

# Oclgrind's diagnostic -> gpukit's finding kind.
KINDS = [
    (r"data race", "race"),
    (r"Uninitialized", "uninit"),
    (r"divergence", "barrier"),
    (r"Invalid (read|write)", "out-of-bounds"),
]

# Why gpukit cannot report what Oclgrind does on the code IGC produced.
_ASYNC_LOWERED = ("IGC lowers async_work_group_copy to plain loads and stores, element k by "
                  "work-item k mod the local size, and wait_group_events to a barrier: ")
KNOWN = {
    "async_copy/async_copy_global_race": _ASYNC_LOWERED + "work-item k copies the very element "
        "it stored before, so the compiled code writes it twice from one work-item (the race is "
        "with the work-group's copy, which the code no longer has)",
    "async_copy/async_copy_local_race": _ASYNC_LOWERED + "work-item k copies into the very "
        "__local element it stored before: one work-item writes it twice",
    "async_copy/async_copy_divergent": _ASYNC_LOWERED + "the last work-item's smaller size makes "
        "it skip its element, which gpukit reports as the uninitialised __local read it causes",
    "async_copy/async_copy_loop_divergent": _ASYNC_LOWERED + "work-item 2's divergent offset is "
        "for a 1-element copy that only work-item 0 performs: the compiled code has no divergence",
    "async_copy/async_copy_single_wi": _ASYNC_LOWERED + "work-item 0's extra 1-element copy is "
        "its own store, ordered by the barrier after it: nothing diverges in the compiled code",
    "async_copy/async_copy_unwaited": "events do not exist in the compiled code: IGC performs "
        "the copy at the call, so nothing is left unwaited",
    "wait_event/wait_event_divergent": _ASYNC_LOWERED + "IGC emits the wait's barrier for "
        "every work-item whichever event it names, so no barrier diverges",
    "wait_event/wait_event_invalid": "events do not exist in the compiled code: waiting for "
        "event 0 is a barrier",
    "uninitialized/partially_uninitialized_fract": "IGC folds the unset lane of f to a NaN "
        "constant (0x7fffffff) at compile time: the code reads no uninitialised register",
    "data-race/local_write_write_race": "IGC stores one work-item's value: the compiled code "
        "has one write",
    "atomics/atomic_race_after": "a plain read of what atomics update is allowed (the "
        "compare-and-swap loop's first guess, which the atomic then checks)",
    "atomics/atomic_global_fence_race": "a plain read of what atomics update is allowed (the "
        "compare-and-swap loop's first guess, which the atomic then checks)",
    "atomics/atomic_intergroup_race": "the shadow keeps one last writer per byte: the other "
        "group's atomics are not remembered beside the plain write",
}


def exact_values(ref):
    """{argument name: {index: value text}} from the .ref's EXACT lines."""
    out = {}
    for line in open(ref, errors="replace"):
        m = re.match(r"EXACT\s+(\w+)\[(\d+)\]\s*=\s*(\S+)", line)
        if m:
            out.setdefault(m.group(1), {})[int(m.group(2))] = m.group(3)
    return out


def expected(ref):
    kinds = set()
    for line in open(ref, errors="replace"):
        if not line.startswith("ERROR"):
            continue
        for pat, kind in KINDS:
            if re.search(pat, line):
                kinds.add(kind)
                break
        else:
            kinds.add("other: " + line[6:].strip())
    return kinds


def params(src, kernel):
    m = re.search(r"kernel\s+void\s+" + re.escape(kernel) + r"\s*\(([^)]*)\)", src, re.S)
    if not m:
        return None
    out = []
    for p in m.group(1).split(","):
        p = " ".join(p.split())
        if not p:
            continue
        space = "global" if re.search(r"\b(__)?(global|constant)\b", p) else "local" if re.search(r"\b(__)?local\b", p) else "value"
        base = re.sub(r"\b(__)?(global|local|constant|const|restrict|volatile)\b", "", p).replace("*", " * ")
        words = base.split()
        ty = words[0] if words else "int"
        if ty == "unsigned":
            ty = "uint"
        out.append((space, ty, "*" in base))
    return out


FMT = {"char": "b", "uchar": "B", "short": "h", "ushort": "H", "int": "i", "uint": "I",
       "long": "q", "ulong": "Q", "float": "f", "double": "d", "size_t": "Q"}
SCALAR = {"char": "i8", "uchar": "u8", "short": "i16", "ushort": "u16", "int": "i32",
          "uint": "u32", "long": "i64", "ulong": "u64", "float": "f32", "double": "f64"}


SHOW = {"char": "i8", "uchar": "u8", "short": "i16", "ushort": "u16", "int": "i32", "uint": "u32",
        "long": "i64", "ulong": "u64", "float": "f32", "double": "f64"}


def param_names(src, kernel):
    """The kernel's parameter names, in order."""
    m = re.search(r"kernel\s+void\s+" + re.escape(kernel) + r"\s*\(([^)]*)\)", src, re.S)
    if not m:
        return []
    return [re.findall(r"\w+", p)[-1] if re.findall(r"\w+", p) else "" for p in m.group(1).split(",")]


def shown_values(report, index):
    """The elements of argument `index`'s --show buffer in gpukit's JSON report."""
    for b in report.get("buffers", []):
        if b.get("arg") == index:
            return b.get("values")
    return None


def same_value(got, want):
    try:
        return float(got) == float(want)
    except (TypeError, ValueError):
        return str(got) == want


def sim_args(sim_lines):
    """The argument entries after the launch: (header dict or None, [value lines])."""
    entries = []
    for line in sim_lines:
        line = line.strip()
        if not line:
            continue
        if line.startswith("<"):
            h = {}
            for tok in line.strip("<>").split():
                k, _, v = tok.partition("=")
                h[k] = v if v else True
            entries.append([h, []])
        else:
            entries.append([None, [line]])
    # Values right after a header (before another header) fill that buffer.
    merged = []
    for e in entries:
        if e[0] is None and merged and merged[-1][0] is not None and merged[-1][2]:
            merged[-1][1].append(e[1][0])
        else:
            merged.append([e[0], e[1], e[0] is not None])
    return merged


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tests")
    ap.add_argument("--gpukit", default="gpukit")
    ap.add_argument("--ocloc", default="ocloc")
    ap.add_argument("--device", default="tgllp")
    ap.add_argument("--work", default="/tmp/gpukit-check-oclgrind")
    a = ap.parse_args()
    rows = []
    for sim in sorted(glob.glob(os.path.join(a.tests, "*", "*.sim"))):
        group = os.path.basename(os.path.dirname(sim))
        name = os.path.splitext(os.path.basename(sim))[0]
        lines = open(sim).read().split("\n")
        cl_file, kernel = lines[0].strip(), lines[1].strip()
        cl_path = os.path.join(os.path.dirname(sim), cl_file)
        uses_async = os.path.exists(cl_path) and ASYNC.search(open(cl_path, errors="replace").read())
        if not uses_async and (group not in SETS or group == "atomics" and "race" not in name):
            continue
        ref = sim[:-4] + ".ref"
        want = expected(ref) if os.path.exists(ref) else set()
        exact = exact_values(ref) if os.path.exists(ref) else {}
        glob_ = [int(x) for x in lines[2].split()]
        local = [int(x) for x in lines[3].split()]
        src = open(os.path.join(os.path.dirname(sim), cl_file)).read()
        d = os.path.join(a.work, group, name)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        shutil.copy(os.path.join(os.path.dirname(sim), cl_file), os.path.join(d, name + ".cl"))
        env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir="dump/")
        r = subprocess.run([a.ocloc, "compile", "-file", name + ".cl", "-device", a.device,
                            "-output_no_suffix", "-output", name], cwd=d, env=env,
                           capture_output=True, text=True)
        binary = os.path.join(d, name + ".bin") if os.path.exists(os.path.join(d, name + ".bin")) else os.path.join(d, name)
        row = {"test": f"{group}/{name}", "expected": sorted(want)}
        rows.append(row)
        if not os.path.exists(binary):
            err = [l for l in (r.stdout + r.stderr).splitlines() if "error" in l.lower()]
            row["status"] = "not compiled by IGC"
            row["detail"] = (err[0] if err else (r.stdout + r.stderr).strip()[-200:])[:200]
            continue
        visas = [v for v in glob.glob(os.path.join(d, "dump", "*.visaasm"))
                 if re.search(r'\.kernel "' + re.escape(kernel) + '"', open(v, errors="replace").read(4096))
                 and not re.search(r"_f\d+\.visaasm$", v)]
        if not visas:
            row["status"] = "not compiled by IGC"
            row["detail"] = "no vISA dump of the kernel"
            continue
        ps = params(src, kernel)
        argv = []
        why = None
        entries = sim_args(lines[5:])
        if ps is None or len(entries) < len(ps):
            row["status"] = "not comparable"
            row["detail"] = "could not match the .sim arguments to the kernel's parameters"
            continue
        shows = []
        names = param_names(src, kernel)
        for i, ((space, ty, ptr), (h, vals, _)) in enumerate(zip(ps, entries)):
            if space == "local":
                argv += ["--arg", f"{i}=local:{h['size'] if h else vals[0]}"]
            elif space == "global" or ptr:
                if h is None:
                    why = f"argument {i}: no buffer header"
                    break
                if "noinit" in h:
                    why = f"argument {i} is an uninitialised host buffer (gpukit's buffers are always host-initialised)"
                    break
                size = int(h["size"])
                ety = next((t for t in FMT if t in h), ty)
                fmt = FMT.get(ety, "i")
                n = size // struct.calcsize(fmt)
                data = [0] * n
                if "fill" in h:
                    data = [float(h["fill"]) if fmt in "fd" else int(h["fill"])] * n
                if "range" in h:
                    s, st, _e = (float(x) for x in h["range"].split(":"))
                    data = [(s + st * k) if fmt in "fd" else int(s + st * k) for k in range(n)]
                for k, v in enumerate(vals[:n]):
                    data[k] = float(v) if fmt in "fd" else int(v, 0)
                path = os.path.join(d, f"arg{i}.bin")
                with open(path, "wb") as fh:
                    fh.write(struct.pack("<" + fmt * n, *data))
                argv += ["--arg", f"{i}=file:{path}"]
                if i < len(names) and names[i] in exact:
                    shows.append((names[i], i))
                    argv += ["--show", f"{i}={SHOW.get(ety, 'i32')}"]
            else:
                v = vals[0] if vals else h.get("fill", "0") if h else "0"
                argv += ["--arg", f"{i}={SCALAR.get(ty, 'i32')}:{v}"]
        if why:
            row["status"] = "not comparable"
            row["detail"] = why
            continue
        cmd = [a.gpukit, "visa", "run", visas[0], "--binary", binary, "--kernel", kernel,
               "--global", ",".join(map(str, glob_)), "--local", ",".join(map(str, local)),
               "--check", "--json"] + argv
        for fn in sorted(glob.glob(visas[0][: -len(".visaasm")] + "_f*.visaasm")):
            cmd += ["--function", fn]
        g = subprocess.run(cmd, capture_output=True, text=True)
        try:
            report = json.loads(g.stdout)
            found = report.get("findings", [])
        except ValueError:
            err = g.stderr.strip().splitlines()
            if any("out-of-bounds" in l for l in err):
                # An out-of-bounds access stops the run: the finding Oclgrind reports.
                report, found = {}, [{"kind": "out-of-bounds"}]
            else:
                row["status"] = "gpukit error"
                row["detail"] = err[-1] if err else f"exit {g.returncode}"
                continue
        got = sorted({f["kind"] for f in found})
        wrong = []
        # Values are compared for the clean tests only: after a race or a divergent
        # barrier they depend on the order Oclgrind happened to run the work-items in.
        for arg, index in shows if not want else []:
            values = shown_values(report, index)
            for k, v in sorted(exact[arg].items()):
                if values is not None and k < len(values) and not same_value(values[k], v):
                    wrong.append(f"{arg}[{k}] = {values[k]}, Oclgrind {v}")
        row["found"] = got
        row["lines"] = g.stderr.strip().splitlines()
        if wrong and set(got) == want:
            row["status"] = "wrong values"
            row["detail"] = "; ".join(wrong[:4])
        elif set(got) == want:
            row["status"] = "same finding" if want else "clean, nothing found"
        elif want - set(got):
            row["status"] = "missed"
            row["detail"] = f"expected {sorted(want)}, found {got}"
        else:
            row["status"] = "extra finding"
            row["detail"] = f"expected {sorted(want)}, found {got}"
    for row in rows:
        if row["status"] in ("missed", "extra finding") and row["test"] in KNOWN:
            row["status"] += " (known)"
            row["detail"] = row.get("detail", "") + ": " + KNOWN[row["test"]]
    for row in rows:
        print(f"{row['test']:45} {row['status']:22} {row.get('detail', ', '.join(row['expected']))}")
    counts = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    print("== " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    json.dump(rows, open(os.path.join(a.work, "results.json"), "w"), indent=1)
    sys.exit(1 if any(r["status"] in ("missed", "extra finding", "wrong values", "gpukit error")
                      for r in rows) else 0)


if __name__ == "__main__":
    main()
