#!/usr/bin/env python3
"""Execution benchmark (issue 24): the same OpenCL C kernels, sizes and inputs under
`gpukit visa run` (IGC's vISA dump of the kernel, ocloc -device tgllp), Oclgrind and
PoCL (both through bench/host.py, a small pyopencl host), in one run. Reports the
least CPU time (user + system, every thread) of --repeat runs for each tool, the
ratios, gpukit's channel-instructions per CPU second (from `visa run --json`), and
checks the output buffers are equal across the three. gpukit's peak resident set (one
more run under GNU time) is printed beside the bytes of the launch's buffers.

gpukit's time is its whole process (parse, bind, run, write the outputs); Oclgrind's
and PoCL's is enqueue + finish of the kernel in an already-built program (their
compilers run outside the timed part), so the ratios are conservative for gpukit.

`--jobs N` (repeatable) runs gpukit with `visa run --jobs N` for each N given
(default 1): a row per N, with gpukit's wall time beside its CPU time (more jobs
spend about the same CPU in less wall time on a machine with idle cores).

usage: bench/exec.py [--gpukit PATH] [--ocloc PATH] [--repeat N] [--only NAME]
                     [--no-oclgrind] [--jobs N]... [--json OUT]
"""
import argparse, glob, json, os, re, resource, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HOST_PYTHON = "/usr/bin/python3"  # Debian's, with python3-pyopencl

# name: (global, local, args, outputs, what the size is)
# Args are `visa run --arg` specs; file:NAME refers to an input made by make_inputs.
KERNELS = {
    "mandelbrot": ((256, 256), (16, 16),
                   ["0=zeros:262144", "1=u32:256", "2=u32:256", "3=u32:64"], [0],
                   "256 x 256 pixels, at most 64 iterations"),
    "matmul_tiled": ((128, 128), (16, 16),
                     ["0=file:a.f32", "1=file:b.f32", "2=zeros:65536", "3=u32:128"], [2],
                     "128 x 128 floats, 16 x 16 tiles in local memory"),
    "histogram_slm": ((16384,), (256,),
                      ["0=file:data.u8", "1=u32:1048576", "2=zeros:1024"], [2],
                      "1 MiB of bytes into 256 bins, local atomics then global atomics"),
}


def make_inputs(d):
    import numpy as np
    r = np.random.default_rng(24)
    r.random(128 * 128, dtype=np.float32).tofile(os.path.join(d, "a.f32"))
    r.random(128 * 128, dtype=np.float32).tofile(os.path.join(d, "b.f32"))
    r.integers(0, 256, 1 << 20, dtype=np.uint8).tofile(os.path.join(d, "data.u8"))


def child_cpu(cmd, **kw):
    """Runs cmd; returns its stdout (exits on failure)."""
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    out, err = p.communicate()
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}):\n{err}")
    return out


def timed(cmd, **kw):
    """Runs cmd; returns its stdout, CPU seconds and wall seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    out = child_cpu(cmd, **kw)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def peak_rss_kb(cmd):
    """The peak resident set of one run of cmd (GNU time's %M), None without /usr/bin/time."""
    if not os.path.exists("/usr/bin/time"):
        return None
    p = subprocess.run(["/usr/bin/time", "-f", "peak_rss_kb=%M"] + cmd, capture_output=True, text=True)
    m = re.search(r"peak_rss_kb=(\d+)", p.stderr)
    return int(m.group(1)) if m else None


def buffer_bytes(args, d):
    """Bytes of the launch's buffer arguments (zeros:N and file:PATH)."""
    total = 0
    for a in args:
        spec = a.split("=", 1)[1]
        if spec.startswith("zeros:"):
            total += int(spec[6:])
        elif spec.startswith("file:"):
            total += os.path.getsize(spec[5:])
    return total


def with_paths(args, d):
    return [re.sub(r"=file:(.*)", lambda m: "=file:" + os.path.join(d, m.group(1)), a) for a in args]


def compile_kernel(ocloc, name, d):
    work = os.path.join(d, name)
    os.makedirs(work, exist_ok=True)
    shutil.copy(os.path.join(HERE, "kernels", name + ".cl"), work)
    env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir="dump/")
    child_cpu([ocloc, "compile", "-file", name + ".cl", "-device", "tgllp",
               "-output_no_suffix", "-output", name], cwd=work, env=env)
    binary = os.path.join(work, name)
    return work, binary


def visa_for(gpukit, binary, work, name):
    info = json.loads(child_cpu([gpukit, "intel", "info", binary, "--json"]))
    simd = next(k["simd_size"] for k in info["kernels"] if k["name"] == name)
    for v in glob.glob(os.path.join(work, "dump", "*.visaasm")):
        if f"_simd{simd}_" in os.path.basename(v) and f'.kernel "{name}"' in open(v).read(4096):
            return v, simd
    sys.exit(f"{name}: no vISA dump for SIMD{simd}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gpukit", default=os.path.join(ROOT, "target", "release", "gpukit"))
    ap.add_argument("--ocloc", default="ocloc")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", action="append")
    ap.add_argument("--no-oclgrind", action="store_true")
    ap.add_argument("--jobs", type=int, action="append", help="visa run --jobs (repeatable; default 1)")
    ap.add_argument("--json", help="write the results here")
    a = ap.parse_args()
    d = tempfile.mkdtemp(prefix="gpukit-bench-")
    make_inputs(d)
    rows = []
    print(f"CPU seconds, least of {a.repeat} runs (gpukit: whole process; Oclgrind, PoCL: enqueue + finish)")
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'kernel':15} {'jobs':>4} {'gpukit':>8} {'wall':>7} {'Oclgrind':>9} {'PoCL':>8} {'Ocl/gpk':>8} {'gpk/PoCL':>9} {'chan-inst/cpu-s':>16} {'RSS MB':>7} {'buf MB':>7}  buffers")
    for name, (global_, local, args, outs, size) in KERNELS.items():
        if a.only and name not in a.only:
            continue
        work, binary = compile_kernel(a.ocloc, name, d)
        visa, simd = visa_for(a.gpukit, binary, work, name)
        g = ",".join(map(str, global_))
        l = ",".join(map(str, local))
        argv = with_paths(args, d)
        # Oclgrind and PoCL through the host, once per kernel
        host = [os.path.join(HERE, "host.py"), "--source", os.path.join(HERE, "kernels", name + ".cl"),
                "--kernel", name, "--global", g, "--local", l, "--repeat", str(a.repeat)]
        for arg in argv:
            host += ["--arg", arg]
        peers = {}
        tools = [("PoCL", [HOST_PYTHON], "portable")]
        if not a.no_oclgrind:
            tools.append(("Oclgrind", ["oclgrind", HOST_PYTHON], "oclgrind"))
        for tool, prefix, platform in tools:
            cmd = prefix + host + ["--platform", platform]
            for n in outs:
                cmd += ["--out", f"{n}={os.path.join(d, f'{name}.{tool}.{n}')}"]
            out = child_cpu(cmd)
            peers[tool] = min(json.loads(out.strip().splitlines()[-1])["cpu_seconds"])
        for jobs in a.jobs or [1]:
            best, wall, stats = None, None, None
            cmd = [a.gpukit, "visa", "run", visa, "--binary", binary, "--global", g, "--local", l,
                   "--json", "--jobs", str(jobs)]
            for arg in argv:
                cmd += ["--arg", arg]
            for n in outs:
                cmd += ["--out", f"{n}={os.path.join(d, f'{name}.gpukit.{n}')}"]
            for _ in range(a.repeat):
                out, cpu, w = timed(cmd)
                if best is None or cpu < best:
                    best, stats = cpu, json.loads(out)
                wall = w if wall is None else min(wall, w)
            rss = peak_rss_kb(cmd)
            same = all(
                open(os.path.join(d, f"{name}.gpukit.{n}"), "rb").read()
                == open(os.path.join(d, f"{name}.{tool}.{n}"), "rb").read()
                for n in outs for tool, _, _ in tools)
            results = dict(peers, gpukit=best)
            cir = stats.get("channel_instructions_per_cpu_second")
            row = {"kernel": name, "jobs": jobs, "size": size, "global": global_, "local": local,
                   "simd": simd, "cpu_seconds": results, "gpukit_wall_seconds": wall,
                   "buffers_equal": same,
                   "channel_instructions": stats.get("channel_instructions"),
                   "channel_instructions_per_cpu_second": cir,
                   "gpukit_peak_rss_kb": rss, "buffer_bytes": buffer_bytes(argv, d)}
            og = results.get("Oclgrind")
            row["oclgrind_over_gpukit"] = og / results["gpukit"] if og else None
            row["gpukit_over_pocl"] = results["gpukit"] / results["PoCL"] if results["PoCL"] else None
            rows.append(row)
            print(f"{name:15} {jobs:4} {results['gpukit']:8.3f} {wall:7.3f} {og if og else float('nan'):9.3f} "
                  f"{results['PoCL']:8.4f} {row['oclgrind_over_gpukit'] or float('nan'):7.1f}x "
                  f"{row['gpukit_over_pocl']:8.1f}x {cir or 0:16.3e} {(rss or 0) / 1024:7.1f} "
                  f"{row['buffer_bytes'] / 2**20:7.2f}  {'equal' if same else 'DIFFER'}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(rows, fh, indent=1)
    shutil.rmtree(d, ignore_errors=True)
    bad = sorted({r["kernel"] for r in rows if not r["buffers_equal"]})
    slow = sorted({r["kernel"] for r in rows if r["oclgrind_over_gpukit"] is not None and r["oclgrind_over_gpukit"] < 30})
    if bad:
        print("buffers differ:", ", ".join(bad))
    if slow:
        print("below 30x less CPU than Oclgrind:", ", ".join(slow))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
