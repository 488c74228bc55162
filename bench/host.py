#!/usr/bin/env python3
"""A small pyopencl host for bench/exec.py: builds one kernel, runs it REPEATS times
on the first device of the platform whose name contains --platform (PoCL directly;
Oclgrind when this script runs under `oclgrind`), writes the buffer arguments after
the last run, and prints {"cpu_seconds": [...]} (process CPU time, every thread,
around enqueue + finish of each run; the build is outside the timed part).

usage: host.py --platform NAME --source FILE --kernel NAME --global X[,Y]
               --local X[,Y] --repeat N --arg SPEC... --out N=FILE...
SPEC is as for `gpukit visa run --arg`: file:PATH, zeros:BYTES, u32:VALUE.
"""
import argparse, json, resource, sys

import numpy as np
import pyopencl as cl


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--platform", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--kernel", required=True)
    ap.add_argument("--global", dest="global_", required=True)
    ap.add_argument("--local", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--arg", action="append", default=[])
    ap.add_argument("--out", action="append", default=[])
    a = ap.parse_args()
    platforms = [p for p in cl.get_platforms() if a.platform.lower() in p.name.lower()]
    if not platforms:
        sys.exit(f"no OpenCL platform named like {a.platform!r}: {[p.name for p in cl.get_platforms()]}")
    ctx = cl.Context([platforms[0].get_devices()[0]])
    queue = cl.CommandQueue(ctx)
    program = cl.Program(ctx, open(a.source).read()).build()
    kernel = getattr(program, a.kernel)
    args, buffers, initial = [], {}, {}
    for spec in a.arg:
        n, s = spec.split("=", 1)
        kind, value = s.split(":", 1)
        if kind in ("file", "zeros"):
            data = np.fromfile(value, np.uint8) if kind == "file" else np.zeros(int(value), np.uint8)
            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
            buffers[int(n)] = (buf, data)
            initial[int(n)] = data.copy()
            args.append(buf)
        else:
            types = {"u32": np.uint32, "i32": np.int32, "f32": np.float32}
            args.append(types[kind](float(value) if kind == "f32" else int(value)))
    kernel.set_args(*args)
    g = tuple(int(x) for x in a.global_.split(","))
    l = tuple(int(x) for x in a.local.split(","))
    times = []
    for i in range(a.repeat):
        # Every run starts from the same inputs (histograms accumulate).
        for n, (buf, data) in buffers.items():
            cl.enqueue_copy(queue, buf, initial[n])
        queue.finish()
        t = cpu()
        cl.enqueue_nd_range_kernel(queue, kernel, g, l)
        queue.finish()
        times.append(cpu() - t)
    for spec in a.out:
        n, path = spec.split("=", 1)
        buf, data = buffers[int(n)]
        cl.enqueue_copy(queue, data, buf)
        queue.finish()
        data.tofile(path)
    print(json.dumps({"cpu_seconds": times}))


if __name__ == "__main__":
    main()
