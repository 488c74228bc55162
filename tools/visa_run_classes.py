#!/usr/bin/python3
"""Self-checking execution suite for `gpukit visa run` (issue 25, "faithful on every
kernel a device runs"): the kernels of tests/visa_run_classes/*.cl, compiled by each IGC
release for each device, run in gpukit with buffers sized exactly to what the launch
touches (no slack, so compiler over-reads show) and inputs that include zero divisors,
and in PoCL on the same inputs; every buffer must agree (integers exactly, floats within
a few ULP; `// EXPECT_FTZ` kernels against the host's result with denormals flushed).

usage: visa_run_classes.py [--release NAME=OCLOC ...] [--device D ...] [--gpukit PATH]
                           [--work DIR] [--only KERNEL] [-v]
Prints one line per failing case and a pass count per release and device.
"""
import argparse, glob, json, os, re, shutil, subprocess, sys
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SUITE = os.path.join(HERE, "..", "tests", "visa_run_classes")
sys.path.insert(0, HERE)
from visa_run_oracle import kernels_of, kernel_params  # noqa: E402

GLOBAL, LOCAL = 40, 8
TYPES = {"char": "i1", "uchar": "u1", "short": "i2", "ushort": "u2", "int": "i4", "uint": "u4",
         "long": "i8", "ulong": "u8", "float": "f4", "double": "f8"}
# ULP bounds: the OpenCL C spec's for the builtins (lgamma/tgamma are unbounded there:
# a relative 1e-4 is asked instead), with room for two implementations' own errors.
ULP = 16
RELATIVE = {"lgamma_f": 1e-4, "tgamma_f": 1e-4, "lgamma_r_f": 1e-4, "math1": 1e-5, "math2": 1e-5}


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def gen(dtype, count, seed):
    rng = np.random.default_rng(seed)
    if dtype in ("f4", "f8"):
        return rng.uniform(-4.0, 4.0, count).astype(dtype)
    info = np.iinfo(dtype)
    small = rng.integers(max(info.min, -9), 10, count)
    full = rng.integers(info.min, info.max, count, dtype=dtype, endpoint=True)
    return np.where(rng.integers(0, 2, count) == 1, small, full).astype(dtype)


def per_item(body, name):
    """Elements of `name` one work item reaches: K in `name[K * i` / `name + K * i`, 3 for vload3."""
    k = [int(m) for m in re.findall(rf"\b{name}\s*(?:\[|\+)\s*(\d+)\s*\*\s*i\b", body)]
    if re.search(rf"v(load|store)3\((.*,)?\s*i\s*,\s*{name}\)", body):
        k.append(3)
    return max(k or [1])


def kernels(src):
    """(name, body, [(param, type, lanes, pointer, const)], scalars) per kernel of a source."""
    out = []
    annotated = src
    if "#define" in src:  # kernels made by macros: parsed after the preprocessor
        src = run(["cpp", "-P"], input=src).stdout
    for m in re.finditer(r"__kernel\s+void\s+(\w+)\s*\(([^)]*)\)\s*\{", src):
        depth, end = 1, m.end()
        while depth and end < len(src):
            depth += {"{": 1, "}": -1}.get(src[end], 0)
            end += 1
        body = src[m.end():end]
        params = []
        for p in m.group(2).split(","):
            p = p.replace("__global", "").strip()
            const = "const" in p
            p = p.replace("const", "").strip()
            t, name = p.rsplit(None, 1)
            ptr = name.startswith("*") or t.endswith("*")
            name, t = name.lstrip("*"), t.rstrip("*").strip()
            tm = re.match(r"([a-z]+?)(\d*)$", t)
            lanes = int(tm.group(2) or 1)
            params.append((name, TYPES[tm.group(1)], 4 if lanes == 3 else lanes, ptr, const))
        at = annotated.rfind("__kernel", 0, annotated.find(f"void {m.group(1)}("))
        scalars = dict(re.findall(r"//\s*SCALAR\s+(\w+)\s+(-?\d+)", annotated[:at].rsplit("__kernel", 1)[-1]))
        out.append((m.group(1), body, params, scalars))
    return out


def annotated_of(src, kernel):
    """The comment lines between a kernel and the one before it."""
    parts = src[:src.find(f"void {kernel}(")].rsplit("__kernel", 2)
    return parts[-2] if len(parts) >= 2 else ""


def flush(a):
    a = a.copy()
    a[np.abs(a) < np.finfo(np.float32).tiny] = 0.0
    return a


def expected_ftz(name, inputs):
    """Host results of the EXPECT_FTZ kernels: every operand and result denormal flushed."""
    if name == "ftz_mul":
        x = flush(inputs[1] * np.float32(1e-36))
        y = flush(x * np.float32(0.01))
        out = np.empty(2 * len(x), dtype=np.float32)
        out[0::2], out[1::2] = y, flush(y * np.float32(1e20))
        return {0: out}
    raise KeyError(name)


def compare(dtype, got, want, rel):
    if dtype not in ("f4", "f8"):
        return np.array_equal(got, want)
    same = (got == want) | (np.isnan(got) & np.isnan(want))
    bits = np.int32 if dtype == "f4" else np.int64
    gi, wi = got.view(bits).astype(np.int64), want.view(bits).astype(np.int64)
    ulp = np.abs(gi - wi) <= ULP
    close = np.abs(got.astype(np.float64) - want) <= rel * np.maximum(np.abs(want), 1.0) if rel else False
    return bool(np.all(same | ulp | close))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", action="append")
    ap.add_argument("--device", action="append")
    ap.add_argument("--gpukit", default=os.path.join(HERE, "..", "target", "release", "gpukit"))
    ap.add_argument("--work", default="/tmp/gpukit-visa-classes")
    ap.add_argument("--only")
    ap.add_argument("--file", help="only this source of the suite (its name without .cl)")
    ap.add_argument("--stack-calls", action="store_true", help="also tgllp with IGC_EnableStackCallFuncCall=1")
    ap.add_argument("-v", action="store_true")
    a = ap.parse_args()
    releases = a.release or ["deb12=ocloc", "bullseye=/work/peers/bullseye/bin/ocloc", "sid=/work/peers/sid/bin/ocloc"]
    devices = a.device or ["tgllp", "dg2", "pvc"]
    targets = [(r, d, None) for r in releases for d in devices]
    if a.stack_calls:
        targets += [(r, d, "stackcall") for r in releases for d in devices]
    import pyopencl as cl
    ctx = cl.Context([cl.get_platforms()[0].get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    total_fail = 0
    for rel, device, variant in targets:
        rname, ocloc = rel.split("=", 1)
        tag = f"{rname}-{device}" + (f"-{variant}" if variant else "")
        passed = failed = 0
        for src_path in sorted(glob.glob(os.path.join(SUITE, "*.cl"))):
            f = os.path.splitext(os.path.basename(src_path))[0]
            if a.file and f != a.file:
                continue
            src = open(src_path).read()
            d = os.path.join(a.work, tag, f)
            os.makedirs(d, exist_ok=True)
            kept = os.path.join(d, f + ".cl")
            if os.path.exists(kept) and open(kept).read() != src:  # the source changed: compile again
                for old in glob.glob(os.path.join(d, "*")):
                    if os.path.isfile(old):
                        os.remove(old)
                shutil.rmtree(os.path.join(d, "dump"), ignore_errors=True)
            open(kept, "w").write(src)
            opts = (re.search(r"//\s*OCLOC_OPTIONS:(.*)", src) or [None, ""])[1].strip()
            binary = os.path.join(d, f)
            if not (os.path.exists(binary) or os.path.exists(binary + ".bin")):
                cmd = [ocloc, "compile", "-file", f + ".cl", "-device", device, "-output_no_suffix", "-output", f]
                if opts:
                    cmd += ["-options", opts]
                env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir="dump/")
                if variant == "stackcall":
                    env["IGC_EnableStackCallFuncCall"] = "1"
                run(cmd, cwd=d, env=env)
            binary = binary if os.path.exists(binary) else binary + ".bin"
            if not os.path.exists(binary):
                print(f"  {tag}: {f}: ocloc built nothing")
                continue
            info = json.loads(run([a.gpukit, "intel", "info", binary, "--json"]).stdout or "{}")
            simd = {k["name"]: k["simd_size"] for k in info.get("kernels", [])}
            dumps = kernels_of(os.path.join(d, "dump"))
            program = cl.Program(ctx, src).build(options=["-cl-std=CL3.0"] + (opts.split() if "denorms" in opts else []))
            shape = re.search(r"//\s*LAUNCH\s+(\d+)\s+(\d+)", src)
            glob_, local = (int(shape[1]), int(shape[2])) if shape else (GLOBAL, LOCAL)
            for kn, body, params, scalars in kernels(src):
                if a.only and kn != a.only:
                    continue
                visa = dumps.get(kn, {}).get(simd.get(kn))
                if not visa:
                    print(f"  {tag}: {kn}: no vISA dump"); failed += 1; continue
                argv, inputs, bufs, clargs = [], {}, {}, []
                for i, (pname, dt, lanes, ptr, const) in enumerate(params):
                    if ptr:
                        fixed = re.search(rf"//\s*COUNT\s+{pname}\s+(\d+)", annotated_of(src, kn))
                        count = int(fixed[1]) if fixed else glob_ * lanes * per_item(body, pname)
                        data = gen(dt, count, seed=100 * i + len(kn))
                        path = os.path.join(d, f"{kn}.{i}.bin")
                        data.tofile(path)
                        inputs[i] = data
                        argv += ["--arg", f"{i}=file:{path}", "--out", f"{i}={path}.out"]
                        bufs[i] = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
                        clargs.append(bufs[i])
                    else:
                        v = int(scalars[pname])
                        argv += ["--arg", f"{i}=i32:{v}"]
                        clargs.append(np.int32(v))
                for fn in sorted(glob.glob(visa[: -len(".visaasm")] + "_f*.visaasm")):
                    argv += ["--function", fn]
                r = run([a.gpukit, "visa", "run", visa, "--binary", binary, "--kernel", kn,
                         "--global", str(glob_), "--local", str(local), "--max-instructions", "20000000"] + argv)
                if r.returncode != 0:
                    msg = (r.stderr.strip().splitlines() or [f"exit {r.returncode}"])[-1]
                    print(f"  {tag}: {kn}: gpukit error: {msg[:300]}"); failed += 1; continue
                if "EXPECT_FTZ" in src:
                    want = expected_ftz(kn, inputs)
                else:
                    program.__getattr__(kn)(queue, (glob_,), (local,), *clargs)
                    want = {}
                    for i, b in bufs.items():
                        host = np.empty_like(inputs[i])
                        cl.enqueue_copy(queue, host, b)
                        want[i] = host
                bad = []
                for i, w in want.items():
                    got = np.fromfile(os.path.join(d, f"{kn}.{i}.bin.out"), dtype=w.dtype)
                    if len(got) != len(w) or not compare(str(w.dtype.str[1:]), got, w, RELATIVE.get(kn, 0)):
                        n = np.flatnonzero(got != w)[:3] if len(got) == len(w) else []
                        bad.append(f"arg {i} differs at {list(n)}: gpukit {got[n].tolist() if len(n) else ''} want {w[n].tolist() if len(n) else ''}")
                if bad:
                    print(f"  {tag}: {kn}: " + "; ".join(bad)[:400]); failed += 1
                else:
                    passed += 1
                    if a.v:
                        print(f"  {tag}: {kn}: ok")
        print(f"== {tag}: {passed}/{passed + failed} pass")
        total_fail += failed
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
