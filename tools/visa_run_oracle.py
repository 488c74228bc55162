#!/usr/bin/env python3
"""Differential oracle for `gpukit visa run`: every kernel of the OpenCL corpus,
compiled with ocloc through an IGC release, runs in gpukit (its vISA dump with the
program binary's ABI) and in PoCL (the OpenCL source) on the same generated inputs;
the output buffers are compared (integers exactly, floats within a ULP bound).
Kernels PoCL 3.1 cannot build (half, sub-groups, work-group collectives) are
compared with a numpy transcription of their source instead (REFERENCES), reported
as "match (reference)".

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
    # 2-D image kernels: one work item per texel of the 16 x 16 output image.
    "image_resample": ((16, 16), (8, 8)),
    "volume_slice": ((16, 16), (8, 8)),
    "array_layer_average": ((16, 16), (8, 8)),
    # One sub-group of 16: its 64-byte-wide image blocks stay inside the image.
    "block_image_rw": ((16,), (16,)),
}
DEFAULT_SHAPE = ((128,), (32,))
# Every image argument: RGBA float texels, 16 x 16 (x 4 slices or layers for 3-D
# images and arrays); images the kernel reads hold uniform [0, 1) values.
IMAGE_SIZE = {"image2d": (16, 16), "image3d": (16, 16, 4), "image2d_array": (16, 16, 4)}
# Image formats other than RGBA float, per kernel: (gpukit ORDER.TYPE, channels, numpy type).
# Sub-group image block reads and writes are undefined for texels wider than 4 bytes.
IMAGE_FORMAT = {"block_image_rw": ("r.u32", 1, "u4")}
# Kernels whose results depend on the order work items reach an atomic: they run,
# but their buffers are not comparable between two implementations.
ORDER_DEPENDENT = {
    "c11_atomics": "atomic_store/atomic_exchange/fetch results depend on work-item order",
    "atomic_int64": "atom_xchg leaves the value of whichever work item came last",
}
# Kernels whose source is undefined on the device the corpus is compiled for (tgllp):
# they run, but there is no result to compare with.
UNDEFINED_ON_TARGET = {
    "mma_i8": "tgllp has no matrix multiply-accumulate (the extension leaves it undefined on other "
              "devices): IGC stores an uninitialized register as the result",
    "mma_bf16": "tgllp has no matrix multiply-accumulate (the extension leaves it undefined on other "
                "devices): IGC stores an uninitialized register as the result",
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


# ---- Second oracle: numpy transcriptions of kernels PoCL 3.1 cannot build ----
# PoCL's CPU device has no cl_khr_fp16, no sub-groups (cl_khr_subgroups,
# cl_intel_subgroups) and no work_group_* collectives in its kernel library. For
# those kernels the expected buffers come from a transcription of what the OpenCL
# source computes, statement by statement, under the OpenCL C semantics (the
# extension specs for the Intel built-ins). The sub-group size is the kernel's SIMD
# size, which is how IGC forms sub-groups; sub-groups are consecutive local ids.
# Each entry: argument element types (the generator needs them: PoCL's arg info is
# unavailable) and a function (inputs, global, local, simd) -> {arg: expected array}
# or {arg: (expected array, mask of the elements the source determines)}.

def _groups(global_, local):
    """(group index, first global id, local size) of each 1-D work-group."""
    return [(g, g * local[0], local[0]) for g in range(global_[0] // local[0])]


def ref_wg_reduce_scan(inp, global_, local, simd):
    x = inp[0]
    sums, scan, fm = inp[1].copy(), inp[2].copy(), inp[3].copy()
    for g, first, n in _groups(global_, local):
        v = x[first:first + n].astype(np.int64)
        sums[g] = (int(v.sum()) + 2**31) % 2**32 - 2**31  # int addition wraps
        scan[first:first + n] = np.cumsum(v).astype(np.int32)
        fm[g] = np.float32(x[first]) * np.float32(0.5)  # work_group_broadcast(v, 0)
    return {1: sums, 2: scan, 3: fm}


def _subgroups(global_, local, size):
    """(first global id, lanes) of each sub-group of a 1-D launch."""
    out = []
    for _, first, n in _groups(global_, local):
        for s in range(0, n, size):
            out.append((first + s, min(size, n - s)))
    return out


def ref_sg_collectives(inp, global_, local, simd):
    x = inp[0].astype(np.uint64)
    out = inp[1].copy()
    M = 0xFFFFFFFF
    for first, n in _subgroups(global_, local, simd):
        v = x[first:first + n]
        s = int(v.sum()) & M
        m = int(v.max())
        p = np.cumsum(v) & M
        q = np.concatenate(([M], np.minimum.accumulate(v)[:-1]))  # exclusive min: identity UINT_MAX
        b = int(v[3])
        # sub_group_any/all return "non-zero"; IGC and every implementation give 1.
        a = int((v > 100).any()) + int((v != 0).all())
        for l in range(n):
            out[first + l] = (s + m + int(p[l]) + int(q[l]) + b + a + l) & M
    return {1: out}


def ref_sg_rotate(inp, global_, local, simd):
    x = inp[0]
    out = inp[1].copy()
    f = np.float32
    for first, n in _subgroups(global_, local, 16):
        v = x[first:first + n]
        for l in range(n):
            a = v[(l + 1) & 15]                 # intel_sub_group_shuffle(v, (lid + 1) & 15)
            b = v[(l + 3) % 16]                 # shuffle_down(v, v, 3): lid+3 of (cur, next)
            c = v[(l - 5) % 16]                 # shuffle_up(v, v, 5): lid-5 of (prev, cur)
            d = v[l ^ 7]                        # shuffle_xor(v, 7)
            out[first + l] = f(f(a + f(2.0) * b) - f(c * d))
    return {1: out}


def ref_sg_bitonic_sort(inp, global_, local, simd):
    data = inp[0].copy()
    for first, n in _subgroups(global_, local, 16):
        v = [int(t) for t in data[first:first + n]]
        k = 2
        while k <= 16:
            j = k >> 1
            while j > 0:
                other = [v[l ^ j] for l in range(n)]
                v = [min(v[l], other[l]) if ((l & k) == 0) == ((l & j) == 0) else max(v[l], other[l]) for l in range(n)]
                j >>= 1
            k <<= 1
        data[first:first + n] = v
    return {0: data}


def ref_block_copy_u32(inp, global_, local, simd):
    src = inp[0]
    dst = inp[1].copy()
    writers = np.zeros(len(dst), dtype=np.int32)
    M = np.uint32(0xFFFFFFFF)
    # intel_sub_group_block_readN(p): lane l's component k is p[16 k + l]; writes alike.
    for g, first, n in _groups(global_, local):
        for sg in range(n // 16):
            base = g * n * 8 + sg * 16 * 8
            lanes = np.arange(16)
            def put(at, values):
                dst[at] = values
                writers[at] += 1
            put(base + lanes, src[base + lanes] + np.uint32(1))
            for k in range(2):
                put(base + 16 + 16 * k + lanes, src[base + 16 + 16 * k + lanes] * np.uint32(2))
            for k in range(4):
                put(base + 48 + 16 * k + lanes, src[base + 48 + 16 * k + lanes] ^ np.uint32(0xFF))
            d = [src[base + 112 + 16 * k + lanes] for k in range(8)]
            for k in range(8):
                put(base + 112 + 16 * k + lanes, (d[k] + d[7 - k]) & M)
    # A sub-group's uint8 write (base+112 .. base+239) overlaps the next sub-group's
    # first 112 dwords: which write lands last is unspecified, so those are not compared.
    return {0: src, 1: (dst, writers <= 1)}


def _half_rtz(x):
    """float32 -> half, rounding toward zero (vstore_half_rtz)."""
    x = np.float32(x)
    h = np.float16(x)
    if np.isinf(h) and not np.isinf(x):
        return np.float16(np.copysign(65504.0, x))
    if abs(np.float32(h)) > abs(x):
        h = (np.array([h]).view(np.uint16) - np.uint16(1)).view(np.float16)[0]
    return h


def ref_float_to_half_store(inp, global_, local, simd):
    x = inp[0]
    out = inp[1].copy()
    f, hf = np.float32, np.float16
    # Work item i reads out[i], which work item i / 4 wrote: the reference runs work
    # items in order (one legal schedule, and the one a SIMD launch in order gives).
    for i in range(global_[0]):
        s = x[4 * i:4 * i + 4] * f(1.5)
        out[4 * i:4 * i + 4] = s.astype(hf)           # vstore_half4_rte
        out[i + 1024] = _half_rtz(f(s[0] + s[1]))      # vstore_half_rtz
        back = f(out[i])                                # vload_half
        h = out[i + 4096]
        h = hf(np.float64(h) * 2.0 + 1.0)               # fma in half: one rounding
        h = hf(h - hf(back))
        out[i + 2048] = hf(hf(back * f(0.25)) + hf(h * hf(0.5)))
    return {1: out}


def ref_block_image_rw(inp, global_, local, simd):
    # 16 x 16 CL_R / CL_UNSIGNED_INT32 images: a byte coordinate x is texel x / 4.
    # intel_sub_group_block_readN(image, coord): lane l's component k is the uint at
    # byte coord.x + 4 l of row coord.y + k; writes alike. One work-group of one
    # sub-group: coord = (0, 0).
    src = inp[0].reshape(16, 16)
    dst = inp[1].reshape(16, 16).copy()
    lanes = np.arange(16)
    rows = [src[k, lanes] for k in range(4)]
    rows = [rows[3 - k] + lanes.astype(np.uint32) for k in range(4)]  # rows.wzyx + lid
    for k in range(4):
        dst[k, lanes] = rows[k]
    dst[8, lanes] = src[8, lanes] << np.uint32(1)
    return {1: dst.reshape(-1)}


REFERENCES = {
    "wg_reduce_scan": ({0: "i4", 1: "i4", 2: "i4", 3: "f4"}, ref_wg_reduce_scan),
    "sg_collectives": ({0: "u4", 1: "u4"}, ref_sg_collectives),
    "sg_rotate": ({0: "f4", 1: "f4"}, ref_sg_rotate),
    "sg_bitonic_sort": ({0: "i4"}, ref_sg_bitonic_sort),
    "block_copy_u32": ({0: "u4", 1: "u4"}, ref_block_copy_u32),
    "float_to_half_store": ({0: "f4", 1: "f2"}, ref_float_to_half_store),
    "block_image_rw": ({0: "u4", 1: "u4"}, ref_block_image_rw),
}


def racy_launch(cl, ctx, queue, kernel, global_, local, pocl_args, outputs):
    """Runs the kernel in PoCL again on fresh copies of the inputs; True if any output differs."""
    if any(isinstance(buf, cl.Image) for (i, dt, buf, n, outp) in outputs):
        return False  # image outputs are not re-run (no image kernel races on its output)
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


def ulp_distance(dtype, got, want):
    """Largest distance in units in the last place between two float buffers (NaN pairs
    count as equal, NaN against a number as infinite)."""
    g = np.frombuffer(got, dtype=dtype); w = np.frombuffer(want, dtype=dtype)
    n = min(len(g), len(w))
    if n == 0:
        return 0
    g, w = g[:n], w[:n]
    bits = {"f2": (np.int16, 15), "f4": (np.int32, 31), "f8": (np.int64, 63)}[dtype]
    def ordered(x):
        i = x.view(bits[0]).astype(object if bits[0] is np.int64 else np.int64)
        return np.where(i < 0, -(i & ((1 << bits[1]) - 1)), i)
    both_nan = np.isnan(g) & np.isnan(w)
    one_nan = np.isnan(g) ^ np.isnan(w)
    if one_nan.any():
        return float("inf")
    d = np.abs(ordered(g) - ordered(w))
    d = np.where(both_nan, 0, d)
    return int(d.max())


def pocl_reason(program):
    """The first error line of PoCL's build log (or the linker's missing symbol)."""
    text = program if isinstance(program, str) else ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("error:"):
            return re.sub(r"^error: \S+?:(\d+):\d+:", r"line \1:", line)[:120]
        if line.startswith("Cannot find symbol"):
            return line[:120]
    return text[-120:].replace("\n", " ")


def first_diff(dtype, got, want, mask=None):
    """None when equal (floats within tolerance), else (index, got, want, count) of the
    first difference; `mask`, when given, names the elements to compare."""
    g = np.frombuffer(got, dtype=dtype); w = np.frombuffer(want, dtype=dtype)
    if dtype.startswith("f"):
        ok = np.isclose(g, w, rtol=1e-5 if dtype != "f2" else 1e-3, atol=1e-6) | (np.isnan(g) & np.isnan(w))
    else:
        ok = g == w
    if mask is not None:
        ok = ok | ~np.asarray(mask, dtype=bool)
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
                    # PoCL 3.1 builds OpenCL C 3.0 with the optional features it has (generic
                    # address space, C11 atomics with scopes); its CL2.0 mode lacks the
                    # *_explicit atomics. So every source builds as CL3.0, whatever -cl-std
                    # it asks of ocloc (CL2.0 sources are valid 3.0 with those features).
                    opts = ["-cl-kernel-arg-info", "-cl-std=CL3.0"]
                    m = re.search(r"//\s*OCLOC_OPTIONS:(.*)", src)
                    if m:
                        opts += [o for o in m.group(1).split() if o.startswith("-D")]
                    try:
                        program = cl.Program(ctx, src).build(options=opts)
                    except Exception as e:
                        program = str(e)
                argv = []
                inputs = {}
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
                        if tname:
                            pt = parse_type(tname)
                        elif kn in REFERENCES and i in REFERENCES[kn][0]:
                            pt = (REFERENCES[kn][0][i], 1, True)
                        else:
                            pt = ("u4", 1, True)
                        if not pt:
                            unsupported = f"argument {i} type {tname}"
                            break
                        dt, lanes, _ = pt
                        data = gen(dt, max(16 * total * lanes, 16384), seed=i + 1)
                        path = os.path.join(d, f"{kn}.arg{i}.bin")
                        data.tofile(path)
                        inputs[i] = data
                        argv += ["--arg", f"{i}=file:{path}", "--out", f"{i}={path}.out"]
                        if ctx:
                            buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
                            pocl_args.append(buf)
                            outputs.append((i, dt, buf, data.nbytes, path + ".out"))
                    elif kind == "image":
                        itype = arg.get("image_type")
                        if itype not in IMAGE_SIZE:
                            unsupported = f"argument {i} is an image of type {itype}"
                            break
                        shape = IMAGE_SIZE[itype]
                        fmt_name, channels, idt = IMAGE_FORMAT.get(kn, ("rgba.f32", 4, "f4"))
                        count = int(np.prod(shape)) * channels
                        access = ck.get_arg_info(i, cl.kernel_arg_info.ACCESS_QUALIFIER) if ck else None
                        reads = access != cl.kernel_arg_access_qualifier.WRITE_ONLY
                        rng = np.random.default_rng(i + 1)
                        if not reads:
                            data = np.zeros(count, dtype=idt)
                        elif idt == "f4":
                            data = rng.uniform(0.0, 1.0, count).astype(idt)
                        else:
                            data = rng.integers(0, 1 << 20, count).astype(idt)
                        path = os.path.join(d, f"{kn}.arg{i}.img")
                        data.tofile(path)
                        inputs[i] = data
                        spec = "x".join(map(str, shape))
                        argv += ["--arg", f"{i}=image:{spec}:{fmt_name}:file:{path}", "--out", f"{i}={path}.out"]
                        if ck is None:
                            # No PoCL kernel to take the image; the reference compares it.
                            outputs.append((i, idt, None, data.nbytes, path + ".out"))
                            continue
                        if ctx:
                            fmt = cl.ImageFormat(cl.channel_order.RGBA, cl.channel_type.FLOAT)
                            img = cl.Image(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, fmt,
                                           shape=shape, is_array=itype == "image2d_array", hostbuf=data)
                            pocl_args.append(img)
                            outputs.append((i, "f4", img, data.nbytes, path + ".out"))
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
                if ck is None and kn in REFERENCES:
                    expected = REFERENCES[kn][1](inputs, global_, local, k["simd_size"])
                    diffs = []
                    for (i, dt, buf, n, outp) in outputs:
                        want = expected.get(i, inputs[i])
                        mask = None
                        if isinstance(want, tuple):
                            want, mask = want
                        fd = first_diff(dt, open(outp, "rb").read(), np.asarray(want, dtype=dt).tobytes(), mask)
                        if fd:
                            diffs.append(f"arg {i}[{fd[0]}]: gpukit {fd[1]} reference {fd[2]} ({fd[3]} differ)")
                    row["status"] = "match (reference)" if not diffs else "MISMATCH (reference)"
                    row["detail"] = "; ".join(diffs) if diffs else "PoCL cannot build it: " + pocl_reason(program)
                    continue
                if kn in UNDEFINED_ON_TARGET:
                    row["status"] = "ran (undefined on tgllp)"
                    row["detail"] = UNDEFINED_ON_TARGET[kn]
                    continue
                if ck is None:
                    row["status"] = "ran (PoCL cannot build it)"
                    row["detail"] = pocl_reason(program)
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
                    if isinstance(buf, cl.Image):
                        shape = IMAGE_SIZE[next(a["image_type"] for a in k["args"] if a["index"] == i)]
                        cl.enqueue_copy(queue, want, buf, origin=(0,) * len(shape), region=shape)
                    else:
                        cl.enqueue_copy(queue, want, buf)
                    got = open(outp, "rb").read()
                    fd = first_diff(dt, got, want.tobytes())
                    if dt.startswith("f"):
                        row["max_ulp"] = max(row.get("max_ulp", 0), ulp_distance(dt, got, want.tobytes()))
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
                if not diffs and "max_ulp" in row:
                    row["detail"] = f"floats within {row['max_ulp']} ulp of PoCL"
                if diffs:
                    row["detail"] = "; ".join(diffs)
        report[name] = rows
        counts = {}
        for row in rows:
            if row["status"] in ("MISMATCH", "MISMATCH (reference)", "gpukit error"):
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
