#!/usr/bin/env python3
"""printf of a corpus kernel in an OpenCL implementation, to compare with `gpukit visa run`.

usage: printf_peer.py prepare FILE.cl KERNEL DIR   writes DIR/argN.bin inputs and prints the
                                                 `--arg` specs gpukit takes, one a line
       printf_peer.py run FILE.cl KERNEL DIR       runs KERNEL on the first OpenCL platform with a device of
                                                 this python's pyopencl (PoCL; Intel's CPU
                                                 runtime through tools/intel-cpu-ocl.sh's
                                                 wrapper) on those inputs: its stdout is what
                                                 the kernel printed

Every launch is GLOBAL work items in one work-group. Inputs: element i of a buffer is
i + 1 (integers; for i even, negated) or (i + 1) * 0.75 (floats, negated likewise);
scalars are 3. The kernel's parameters are read from its source, with the oracle's
parser (tools/visa_run_oracle.py).
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from visa_run_oracle import kernel_params, parse_type  # noqa: E402

GLOBAL = 8
ELEMENTS = 64
SCALAR = 3


def inputs(src, kernel, d):
    """[(index, kind, numpy value)] for every parameter (kind: buffer or value)."""
    import numpy as np
    out = []
    for i, (t, _name) in enumerate(kernel_params(src, kernel)):
        dt, lanes, ptr = parse_type(t) or (None, 1, False)
        if dt is None:
            sys.exit(f"{kernel}: parameter {i} has type {t}, which this tool does not generate")
        if ptr:
            n = np.arange(1, ELEMENTS * lanes + 1)
            sign = np.where(np.arange(ELEMENTS * lanes) % 2 == 0, -1, 1)
            v = (n * 0.75 * sign if dt.startswith("f") else n * sign).astype(dt)
            out.append((i, "buffer", v))
        else:
            out.append((i, "value", np.full(lanes, SCALAR, dtype=dt)))
    return out


def main():
    mode, cl, kernel, d = sys.argv[1:5]
    src = open(cl).read()
    args = inputs(src, kernel, d)
    if mode == "prepare":
        os.makedirs(d, exist_ok=True)
        for i, kind, v in args:
            path = os.path.join(d, f"arg{i}.bin")
            v.tofile(path)
            print(f"{i}={'file' if kind == 'buffer' else 'bytes'}:{path}")
        return
    import pyopencl as cl_
    devices = next(d for d in (p.get_devices() for p in cl_.get_platforms()) if d)
    ctx = cl_.Context(devices)
    queue = cl_.CommandQueue(ctx)
    program = cl_.Program(ctx, src).build()
    k = getattr(program, kernel)
    mf = cl_.mem_flags
    values = []
    for _i, kind, v in args:
        if kind == "buffer":
            values.append(cl_.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=v))
        else:
            values.append(v if len(v) > 1 else v[0])
    k(queue, (GLOBAL,), (GLOBAL,), *values)
    queue.finish()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
