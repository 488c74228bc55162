#!/usr/bin/env python3
"""Differential oracle for `gpukit visa run`: every kernel of the OpenCL corpus,
compiled with ocloc through an IGC release, runs in gpukit (its vISA dump with the
program binary's ABI) and in PoCL (the OpenCL source) on the same generated inputs;
the output buffers are compared (integers exactly, floats within a ULP bound).

usage: visa_run_oracle.py --release NAME=OCLOC [...] [--cl-dir DIR] [--work DIR]
                          [--gpukit PATH] [--no-pocl] [--json OUT] [--only KERNEL]

Prints one line per kernel and a summary per release. Exit 1 when a kernel gives a
different result than PoCL or stops with an error, unless `--known` lists it.
"""
import argparse, glob, json, os, re, shutil, subprocess, sys

try:
    import numpy as np
except ImportError:  # pragma: no cover
    np = None

# Launch shapes the sources need (reqd_work_group_size, 2-D kernels).
SHAPES = {
    "tile_transpose": ((32, 32), (16, 16)),
    "many_args_kernel": ((128,), (64,)),
    "noise_field": ((16, 16), (8, 8)),
    # Each work item owns a TM x TN = 8 x 6 tile of C (M = N = K = SCALAR_INT = 100):
    # 16 x 8 items stay inside the matrix. Wider launches make tiles overlap, and the
    # read-modify-write of C (beta * C[idx]) becomes a race whose result depends on
    # which work item runs last (PoCL runs work groups on several threads).
    "sgemm_regblock": ((16, 8), (16, 1)),
}
DEFAULT_SHAPE = ((128,), (32,))
# Kernels whose results depend on the order work items reach an atomic: they run,
# but their buffers are not comparable between two implementations.
ORDER_DEPENDENT = {
    "c11_atomics": "atomic_store/atomic_exchange/fetch results depend on work-item order",
    "atomic_int64": "atom_xchg leaves the value of whichever work item came last",
}
SCALAR_INT = 100
SCALAR_FLOAT = 1.25

def struct_values():
    """By-value structs of the corpus, laid out as OpenCL C lays them out, with their test values."""
    if np is None:
        return {}
    params = np.zeros(1, dtype=np.dtype([("m", "f4", (4, 4)), ("count", "i4"), ("pad", "i4", 3), ("tint", "f4", 4)]))
    params["m"] = np.arange(16, dtype="f4").reshape(4, 4) / 8.0
    params["count"] = 3
    params["tint"] = [0.5, 0.25, 1.0, 2.0]
    small = np.zeros(1, dtype=np.dtype([("a", "i4"), ("b", "f4"), ("c", "i2", 3), ("pad", "i2")]))
    small["a"] = 5
    small["b"] = 1.5
    small["c"] = [1, 2, 3]
    return {"Params": params, "Small": small}


TYPES = {
    "char": ("i1", 1), "uchar": ("u1", 1), "short": ("i2", 2), "ushort": ("u2", 2),
    "int": ("i4", 4), "uint": ("u4", 4), "long": ("i8", 8), "ulong": ("u8", 8),
    "float": ("f4", 4), "double": ("f8", 8), "half": ("f2", 2), "bool": ("u1", 1),
    "atomic_int": ("i4", 4), "atomic_uint": ("u4", 4), "size_t": ("u8", 8),
}


def racy_launch(cl, ctx, queue, kernel, global_, local, pocl_args, outputs):
    """Runs the kernel in PoCL again on fresh copies of the inputs; True if any output differs."""
    first = {}
    for (i, dt, buf, n, outp) in outputs:
        want = np.empty(n, dtype=np.uint8)
        cl.enqueue_copy(queue, want, buf)
        first[i] = want.tobytes()
    args = list(pocl_args)
    fresh = {}
    for (i, dt, buf, n, outp) in outputs:
        data = np.fromfile(outp[: -len(".out")], dtype=np.uint8)
        fresh[i] = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
    # pocl_args holds buffers in argument order; swap each output buffer for its fresh copy
    index = {id(buf): i for (i, dt, buf, n, outp) in outputs}
    args = [fresh[index[id(a)]] if id(a) in index else a for a in args]
    kernel(queue, global_, local, *args)
    queue.finish()
    for i, buf in fresh.items():
        again = np.empty(len(first[i]), dtype=np.uint8)
        cl.enqueue_copy(queue, again, buf)
        if again.tobytes() != first[i]:
            return True
    return False


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def compile_release(name, ocloc, cl_dir, work):
    out = {}
    for src in sorted(glob.glob(os.path.join(cl_dir, "*.cl"))):
        f = os.path.splitext(os.path.basename(src))[0]
        d = os.path.join(work, name, f)
        binary = os.path.join(d, f)
        if not (os.path.exists(binary) or os.path.exists(binary + ".bin")):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            shutil.copy(src, d)
            opts = ""
            m = re.search(r"//\s*OCLOC_OPTIONS:(.*)", open(src).read())
            if m:
                opts = m.group(1).strip()
            cmd = [ocloc, "compile", "-file", f + ".cl", "-device", "tgllp", "-output_no_suffix", "-output", f]
            if opts:
                cmd += ["-options", opts]
            env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir="dump/")
            run(cmd, cwd=d, env=env)
        for b in (binary, binary + ".bin"):
            if os.path.exists(b):
                out[f] = (d, b)
    return out


def parse_type(t):
    """'float4*' -> ('f4', 4 lanes, is_pointer)"""
    t = t.strip().split(";")[0].replace("const", "").replace("__global", "").strip()
    ptr = t.endswith("*")
    t = t.rstrip("*").strip()
    m = re.match(r"([a-z_]+?)(\d+)?$", t)
    if not m or m.group(1) not in TYPES:
        return None
    return TYPES[m.group(1)][0], int(m.group(2) or 1), ptr


def gen(dtype, count, seed):
    rng = np.random.default_rng(seed)
    if dtype.startswith("f"):
        return rng.uniform(-2.0, 2.0, count).astype(dtype)
    if dtype in ("u1", "i1"):
        return rng.integers(0, 127, count).astype(dtype)
    return rng.integers(0, 64, count).astype(dtype)


def kernels_of(dump):
    """kernel name -> {simd: visaasm path}"""
    out = {}
    for v in sorted(glob.glob(os.path.join(dump, "*.visaasm"))):
        m = re.search(r"_simd(\d+)_", os.path.basename(v))
        with open(v, errors="replace") as fh:
            head = fh.read(4096)
        k = re.search(r'\.kernel "([^"]+)"', head)
        if k and m:
            out.setdefault(k.group(1), {})[int(m.group(1))] = v
    return out


def ulp_diff(a, b):
    a = np.asarray(a); b = np.asarray(b)
    if a.dtype == np.float32:
        ia = a.view(np.int32).astype(np.int64); ib = b.view(np.int32).astype(np.int64)
    elif a.dtype == np.float64:
        ia = a.view(np.int64).astype(object); ib = b.view(np.int64).astype(object)
    else:
        ia = a.view(np.int16).astype(np.int64); ib = b.view(np.int16).astype(np.int64)
    ia = np.where(np.asarray(ia) < 0, -(np.asarray(ia) & 0x7FFFFFFFFFFFFFFF), ia) if a.dtype != np.float64 else ia
    ib = np.where(np.asarray(ib) < 0, -(np.asarray(ib) & 0x7FFFFFFFFFFFFFFF), ib) if a.dtype != np.float64 else ib
    return np.abs(np.asarray(ia, dtype=np.float64) - np.asarray(ib, dtype=np.float64))


def first_diff(dtype, got, want):
    """None when equal (floats within tolerance), else (index, got, want) of the first difference."""
    g = np.frombuffer(got, dtype=dtype); w = np.frombuffer(want, dtype=dtype)
    if dtype.startswith("f"):
        ok = np.isclose(g, w, rtol=1e-5 if dtype != "f2" else 1e-3, atol=1e-6) | (np.isnan(g) & np.isnan(w))
    else:
        ok = g == w
    bad = np.nonzero(~ok)[0]
    if len(bad) == 0:
        return None
    i = int(bad[0])
    return (i, g[i].item(), w[i].item(), len(bad))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", action="append", required=True, help="NAME=OCLOC")
    ap.add_argument("--cl-dir", default=os.path.join(os.path.dirname(__file__), "../../shared/corpus/intel/cl"))
    ap.add_argument("--work", default="/tmp/gpukit-visa-oracle")
    ap.add_argument("--gpukit", default="gpukit")
    ap.add_argument("--no-pocl", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--only")
    ap.add_argument("--known", help="file of `release kernel  # why` lines: known gaps that do not fail the run")
    a = ap.parse_args()
    ctx = queue = None
    if not a.no_pocl:
        import pyopencl as cl
        plats = [p for p in cl.get_platforms() if "Portable" in p.name or "pocl" in p.name.lower()]
        if not plats:
            sys.exit("PoCL platform not found (apt-get install pocl-opencl-icd python3-pyopencl)")
        ctx = cl.Context(plats[0].get_devices())
        queue = cl.CommandQueue(ctx)
    report = {}
    bad = 0
    known = set()
    if a.known:
        for line in open(a.known):
            line = line.split("#")[0].split()
            if len(line) >= 2:
                known.add((line[0], line[1]))
    for rel in a.release:
        name, ocloc = rel.split("=", 1)
        built = compile_release(name, ocloc, a.cl_dir, a.work)
        rows = []
        for f, (d, binary) in sorted(built.items()):
            info = json.loads(run([a.gpukit, "intel", "info", binary, "--json"]).stdout or "{}")
            dumps = kernels_of(os.path.join(d, "dump"))
            src = open(os.path.join(d, f + ".cl")).read()
            program = None
            for k in info.get("kernels", []):
                kn = k["name"]
                if kn.startswith("Intel_Symbol_Table"):
                    continue  # zebin's symbol-table pseudo kernel
                if a.only and kn != a.only:
                    continue
                row = {"release": name, "file": f, "kernel": kn}
                rows.append(row)
                visa = dumps.get(kn, {}).get(k["simd_size"])
                if not visa:
                    row["status"] = "no vISA dump"
                    continue
                global_, local = SHAPES.get(kn, DEFAULT_SHAPE)
                total = int(np.prod(global_))
                # argument types from PoCL's arg info (source built with -cl-kernel-arg-info)
                if ctx is not None and program is None:
                    opts = ["-cl-kernel-arg-info", "-cl-std=CL2.0"]
                    m = re.search(r"//\s*OCLOC_OPTIONS:(.*)", src)
                    if m:
                        opts += [o for o in m.group(1).split() if o.startswith("-D") or o.startswith("-cl-std")]
                    try:
                        program = cl.Program(ctx, src).build(options=[o for o in opts if not (o.startswith("-cl-std") and opts.count(o) > 1)])
                    except Exception as e:
                        program = str(e)
                argv = []
                pocl_args = []
                outputs = []
                unsupported = None
                ck = None
                if isinstance(program, cl.Program if ctx else type(None)):
                    try:
                        ck = cl.Kernel(program, kn)
                    except Exception as e:
                        unsupported = f"PoCL: {e}"
                for arg in k["args"]:
                    i = arg["index"]
                    tname = ck.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME) if ck else None
                    kind = arg["kind"]
                    if kind in ("stateless_pointer", "stateful_pointer"):
                        pt = parse_type(tname) if tname else ("u4", 1, True)
                        if not pt:
                            unsupported = f"argument {i} type {tname}"
                            break
                        dt, lanes, _ = pt
                        data = gen(dt, max(16 * total * lanes, 16384), seed=i + 1)
                        path = os.path.join(d, f"{kn}.arg{i}.bin")
                        data.tofile(path)
                        argv += ["--arg", f"{i}=file:{path}", "--out", f"{i}={path}.out"]
                        if ctx:
                            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
                            pocl_args.append(buf)
                            outputs.append((i, dt, buf, data.nbytes, path + ".out"))
                    elif kind == "local_pointer":
                        argv += ["--arg", f"{i}=local:4096"]
                        if ctx:
                            pocl_args.append(cl.LocalMemory(4096))
                    elif kind == "value" and tname in struct_values():
                        v = struct_values()[tname]
                        path = os.path.join(d, f"{kn}.arg{i}.val")
                        v.tofile(path)
                        argv += ["--arg", f"{i}=file:{path}"]
                        if ctx:
                            pocl_args.append(v[0])
                    elif kind == "value":
                        pt = parse_type(tname) if tname else None
                        if not pt or pt[2]:
                            unsupported = f"by-value argument {i} of type {tname}"
                            break
                        dt, lanes, _ = pt
                        if dt.startswith("f"):
                            v = np.full(lanes, SCALAR_FLOAT, dtype=dt)
                        else:
                            v = np.full(lanes, SCALAR_INT if lanes == 1 else 3, dtype=dt)
                        path = os.path.join(d, f"{kn}.arg{i}.val")
                        v.tofile(path)
                        argv += ["--arg", f"{i}=file:{path}"]
                        if ctx:
                            pocl_args.append(v if lanes > 1 else v[0])
                    else:
                        unsupported = f"argument {i} is {kind}"
                        break
                if unsupported:
                    row["status"] = "unsupported input"
                    row["detail"] = unsupported
                    continue
                cmd = [a.gpukit, "visa", "run", visa, "--binary", binary, "--kernel", kn,
                       "--global", ",".join(map(str, global_)), "--local", ",".join(map(str, local)), "--json"] + argv
                r = run(cmd)
                if r.returncode != 0:
                    row["status"] = "gpukit error"
                    row["detail"] = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
                    row["first"] = r.stderr.strip()
                    continue
                row["stats"] = json.loads(r.stdout)
                row["status"] = "ran"
                if not ctx:
                    continue
                if ck is None:
                    row["status"] = "ran (PoCL cannot build it)"
                    row["detail"] = (program if isinstance(program, str) else "")[-150:].replace("\n", " ")
                    continue
                try:
                    ck(queue, global_, local, *pocl_args)
                    queue.finish()
                except Exception as e:
                    row["status"] = "ran (PoCL failed)"
                    row["detail"] = str(e)[:200]
                    continue
                diffs = []
                for (i, dt, buf, n, outp) in outputs:
                    want = np.empty(n, dtype=np.uint8)
                    cl.enqueue_copy(queue, want, buf)
                    got = open(outp, "rb").read()
                    fd = first_diff(dt, got, want.tobytes())
                    if fd:
                        diffs.append(f"arg {i}[{fd[0]}]: gpukit {fd[1]} PoCL {fd[2]} ({fd[3]} differ)")
                if diffs and racy_launch(cl, ctx, queue, ck, global_, local, pocl_args, outputs):
                    # PoCL disagrees with itself: the launch lets work items race (overlapping
                    # read-modify-writes), so no single answer exists to compare with. The cure
                    # is a launch shape in SHAPES that keeps work items apart.
                    row["status"] = "racy launch"
                    row["detail"] = "PoCL's two runs differ; give the kernel a shape in SHAPES"
                    continue
                if diffs and kn in ORDER_DEPENDENT:
                    row["status"] = "ran (order-dependent)"
                    row["detail"] = ORDER_DEPENDENT[kn]
                    continue
                row["status"] = "match" if not diffs else "MISMATCH"
                if diffs:
                    row["detail"] = "; ".join(diffs)
        report[name] = rows
        counts = {}
        for row in rows:
            if row["status"] in ("MISMATCH", "gpukit error"):
                if (name, row["kernel"]) in known:
                    row["status"] += " (known)"
                else:
                    bad += 1
            counts[row["status"]] = counts.get(row["status"], 0) + 1
            print(f"{name:9} {row['file']:20} {row['kernel']:26} {row['status']:18} {row.get('detail', '')[:150]}")
        print(f"== {name}: {len(rows)} kernels: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(report, fh, indent=1)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
