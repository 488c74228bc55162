#!/usr/bin/env python3
"""Differential oracle for `gpukit visa run`: every kernel of the OpenCL corpus,
compiled with ocloc through an IGC release, runs in gpukit (its vISA dump with the
program binary's ABI) and in PoCL (the OpenCL source) on the same generated inputs;
the output buffers are compared (integers exactly, floats within the OpenCL C spec's ULP
bounds of the builtins each kernel calls: ULP_BOUNDS).
Kernels PoCL 3.1 cannot build (half, sub-groups, work-group collectives) are
compared with another OpenCL implementation named by --second (Intel's CPU runtime,
tools/intel-cpu-ocl.sh; Debian sid's PoCL, tools/sid-pocl.sh), reported as
"match (NAME)".

usage: visa_run_oracle.py --release NAME=OCLOC [...] [--cl-dir DIR] [--work DIR]
                          [--gpukit PATH] [--no-pocl] [--json OUT] [--only KERNEL]
                          [--second NAME=PYTHON ...]

Prints one line per kernel and a summary per release. Exit 1 when a kernel gives a
different result than PoCL or stops with an error, unless `--known` lists it.

`--gen` also runs the Gen code IGC emitted for each kernel (the `.asm` dumped beside
its `.visaasm`) with `gpukit iga run` on the same arguments, and compares its buffers
with PoCL's (or the --second implementation's, by the same rule) and with `visa run`'s
(byte for byte): a `gen:` line per kernel (a failure names the first unsupported
instruction or message) and a `== gen table:` per release and device. With
`--gen-only` the exit status is the Gen results': a failure `--gen-known` does not
list, or a listed gap that no longer fails (the list stays exact).
"""
import argparse, glob, json, os, re, select, shlex, shutil, subprocess, sys

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
# Kernels whose source is undefined on a device the corpus is compiled for: they run,
# but there is no result to compare with. Per kernel, per device, the reason.
_NO_MMA = ("the matrix multiply-accumulate extension leaves it undefined on {why}: IGC loads no "
           "operand and stores an uninitialized register as the result")
UNDEFINED_ON_TARGET = {
    kernel: {
        "tgllp": _NO_MMA.format(why="tgllp, which has no matrix unit"),
        "dg2": _NO_MMA.format(why="dg2 with sub-groups of 16, as the source asks"),
    }
    for kernel in ("mma_i8", "mma_bf16")
}
# PVC has no sampler: IGC 1.0.12504 drops read_imagef's sampler message there (the
# vISA's texel registers are read without ever being written: `sample` is nowhere in
# the dump, only the typed writes are), and IGC 2.x refuses images for PVC ("For PVC
# platform images should not be used").
for _kernel in ("image_resample", "volume_slice", "array_layer_average"):
    UNDEFINED_ON_TARGET[_kernel] = {
        "pvc": "read_imagef with a sampler is undefined on pvc, which has no sampler: IGC 1.0.12504 emits "
               "no sampler message (the texels it reads are uninitialized registers); IGC 2.x refuses images for pvc"}
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


# Elements the source leaves undetermined: several work items write them and nothing
# orders the writes, so two implementations (or two runs) may keep either. Per kernel:
# a function (global, local, {arg: element count}) -> {arg: mask of the elements the
# source determines}, and why. Only the determined elements are compared.
def _block_copy_u32_determined(global_, local, counts):
    # intel_sub_group_block_writeN(p, v) writes p[16 k + lane] for k < N: each sub-group
    # of 16 writes dwords base .. base + 239 (1 + 2 + 4 + 8 blocks of 16) with base = 128
    # per sub-group, so its uint8 write overlaps the next sub-group's first 112 dwords.
    writers = np.zeros(counts[1], dtype=np.int32)
    for s in range(global_[0] // 16):
        writers[s * 128:s * 128 + 240] += 1
    return {1: writers <= 1}


def _float_to_half_store_determined(global_, local, counts):
    # Work item i reads out[i] (vload_half), which work item i / 4 writes (vstore_half4)
    # with nothing ordering the two: out[2048 + i], computed from it, is a data race for
    # every i > 0 (work item 0 reads what it wrote itself).
    keep = np.ones(counts[1], dtype=bool)
    keep[2049:2048 + global_[0]] = False
    return {1: keep}


UNDETERMINED = {
    "block_copy_u32": (_block_copy_u32_determined,
                       "consecutive sub-groups' block writes overlap by 112 dwords, in no defined order"),
    "float_to_half_store": (_float_to_half_store_determined,
                            "out[2048 + i] (i > 0) reads out[i], which work item i / 4 writes unordered"),
}


# ---- Second implementations: kernels PoCL 3.1 cannot build ----
# `--second NAME=PYTHON` names a python (a wrapper script that sets up its environment)
# whose pyopencl sees exactly one OpenCL implementation: Intel's CPU runtime from PyPI
# (tools/intel-cpu-ocl.sh) or Debian sid's PoCL (tools/sid-pocl.sh). For each kernel
# PoCL 3.1 cannot build, the oracle asks them in order, through this same script run
# by that python as a server (`--serve`: one JSON job a line on stdin, one result a
# line on stdout), and compares gpukit's buffers with the first that builds and runs
# it. Sub-groups: the sub-group size must be IGC's SIMD size for the results to
# compare; the server runs with CL_CONFIG_CPU_VECTORIZER_MODE set to it (Intel's CPU
# runtime forms sub-groups of its vector width; the kernels' intel_reqd_sub_group_size
# agrees with it, as IGC honours it too) and reports the size the kernel got, and a
# kernel that got another is not compared.
SERVE_TYPES = {"FLOAT": "FLOAT", "UNSIGNED_INT32": "UNSIGNED_INT32"}


def other_kernels_removed(src, kernel):
    """The source without the definitions of its other kernels (brace matching), for an
    implementation whose kernel library lacks a builtin only another kernel calls."""
    text = strip_comments(src)
    out, last = [], 0
    # A function definition: NAME(PARAMS) { (attributes' parentheses do not match: no
    # `{` follows them); its declaration starts after the previous `;` or `}`.
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\([^;{)]*\)\s*\{", text):
        if m.start() < last:
            continue
        start = max(text.rfind(";", 0, m.start()), text.rfind("}", 0, m.start())) + 1
        directives = list(re.finditer(r"^[ \t]*#[^\n]*\n", text[start:m.start()], re.M))
        if directives:  # kept: a #pragma or #define before the kernel serves the rest too
            start += directives[-1].end()
        j = closing_brace(text, m.end() - 1)
        if m.group(1) != kernel and re.search(r"\b(__)?kernel\b", text[start:m.start()]):
            out.append(text[last:start])
            last = j + 1
    return "".join(out) + text[last:]


def serve():
    """--serve: runs jobs in the OpenCL implementation this python sees (see above)."""
    import pyopencl as cl
    dev = cl.get_platforms()[0].get_devices()[0]
    plat = dev.platform
    ctx = cl.Context([dev])
    queue = cl.CommandQueue(ctx)
    name = f"{plat.name} {dev.driver_version}".strip()
    built = {}
    for line in sys.stdin:
        job = json.loads(line)
        res = {"implementation": name}
        try:
            res.update(serve_job(cl, dev, ctx, queue, job, built))
        except Exception as e:  # a failure of this job, reported, not fatal to the next
            res.update(status="run failed", detail=str(e).strip().splitlines()[0][:200] if str(e).strip() else repr(e))
        sys.stdout.write(json.dumps(res) + "\n")
        sys.stdout.flush()


def serve_job(cl, dev, ctx, queue, job, built):
    # The whole source first; failing that, the kernel alone (its source without the
    # other kernels), in case only another kernel needs what the library lacks.
    whole = (job["src"], tuple(job["options"]))
    attempts = [(whole, "", job["src"]),
                (whole + (job["kernel"],), " (its file's other kernels removed)",
                 other_kernels_removed(job["src"], job["kernel"]))]
    errors = []
    for key, note, text in attempts:
        if key not in built:
            try:
                built[key] = cl.Program(ctx, text).build(options=job["options"])
            except Exception as e:
                built[key] = pocl_reason(str(e))
        if not isinstance(built[key], str):
            program = built[key]
            break
        errors.append(built[key] + note)
    else:
        return {"status": "build failed", "detail": "; ".join(errors)}
    try:
        kernel = cl.Kernel(program, job["kernel"])
    except Exception as e:
        return {"status": "build failed", "detail": f"no kernel {job['kernel']}{note}: {e}"}
    sub_group = None
    if job.get("sub_groups"):
        sub_group = kernel.get_sub_group_info(
            dev, cl.kernel_sub_group_info.MAX_SUB_GROUP_SIZE_FOR_NDRANGE, tuple(job["local"]))
    runs = []
    for _ in range(2):  # twice on fresh inputs: a racy launch gives two answers
        args, outs = [], []
        for a in job["args"]:
            if a["kind"] == "buffer":
                data = np.fromfile(a["path"], dtype=np.uint8)
                buf = cl.Buffer(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, hostbuf=data)
                args.append(buf)
                outs.append((a, buf, data.nbytes, None))
            elif a["kind"] == "image":
                data = np.fromfile(a["path"], dtype=np.uint8)
                fmt = cl.ImageFormat(getattr(cl.channel_order, a["order"]),
                                     getattr(cl.channel_type, SERVE_TYPES[a["type"]]))
                img = cl.Image(ctx, cl.mem_flags.READ_WRITE | cl.mem_flags.COPY_HOST_PTR, fmt,
                               shape=tuple(a["shape"]), is_array=a["array"], hostbuf=data)
                args.append(img)
                outs.append((a, img, data.nbytes, tuple(a["shape"])))
            elif a["kind"] == "local":
                args.append(cl.LocalMemory(a["size"]))
            else:  # by-value: the argument's bytes
                args.append(np.fromfile(a["path"], dtype=np.uint8))
        kernel(queue, tuple(job["global"]), tuple(job["local"]), *args)
        queue.finish()
        got = []
        for a, mem, n, shape in outs:
            host = np.empty(n, dtype=np.uint8)
            if shape:
                cl.enqueue_copy(queue, host, mem, origin=(0,) * len(shape), region=shape)
            else:
                cl.enqueue_copy(queue, host, mem)
            got.append((a["out"], host.tobytes()))
        runs.append(got)
    for out, data in runs[0]:
        with open(out, "wb") as fh:
            fh.write(data)
    return {"status": "ran", "detail": note, "sub_group_size": sub_group,
            "racy": runs[0] != runs[1]}


class SecondImplementations:
    """The --second servers, started when first needed (one per implementation and
    sub-group size, since the vectorizer setting is read at start)."""

    def __init__(self, specs):
        self.specs = [s.split("=", 1) for s in specs or []]
        self.procs = {}

    def ask(self, job, simd):
        """[(name, result)] from each implementation in order, up to the first that ran it."""
        answers = []
        for name, python in self.specs:
            key = (name, simd)
            proc = self.procs.get(key)
            if proc is None or proc.poll() is not None:
                env = dict(os.environ, CL_CONFIG_CPU_VECTORIZER_MODE=str(simd), PYOPENCL_NO_CACHE="1")
                proc = subprocess.Popen([python, os.path.abspath(__file__), "--serve"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
                self.procs[key] = proc
            try:
                proc.stdin.write(json.dumps(job) + "\n")
                proc.stdin.flush()
                ready = select.select([proc.stdout], [], [], CHILD_TIMEOUT)[0]
                line = proc.stdout.readline() if ready else None
            except OSError:
                line = ""
            if line is None:
                proc.kill()
                proc.wait()
                res = {"status": "timed out", "detail": f"no answer from {python} in {CHILD_TIMEOUT} s"}
            elif not line:
                proc.wait()
                res = {"status": "crashed", "detail": f"{python} --serve ended (exit {proc.returncode})"}
            else:
                res = json.loads(line)
            answers.append((name, res))
            if res["status"] == "ran":
                break
        return answers

    def close(self):
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.stdin.close()
                proc.wait()


def determined(kn, global_, local, outputs):
    """{arg: mask} of the elements UNDETERMINED says the kernel's source fixes ({} when all)."""
    if kn not in UNDETERMINED:
        return {}
    counts = {i: n // np.dtype(dt).itemsize for (i, dt, buf, n, outp) in outputs}
    return UNDETERMINED[kn][0](global_, local, counts)


def build_options(src):
    """PoCL's build options for a corpus source.
    PoCL 3.1 builds OpenCL C 3.0 with the optional features it has (generic address
    space, C11 atomics with scopes); its CL2.0 mode lacks the *_explicit atomics. So
    every source builds as CL3.0, whatever -cl-std it asks of ocloc (CL2.0 sources are
    valid 3.0 with those features)."""
    opts = ["-cl-kernel-arg-info", "-cl-std=CL3.0"]
    m = re.search(r"//\s*OCLOC_OPTIONS:(.*)", src)
    if m:
        opts += defines(m.group(1))
    return opts


# Builtins of extensions no second implementation has, defined in OpenCL C from the
# extension's text (tools/*.cl) and put before the source of a kernel that calls them:
# {regex of the builtins: the file}.
REFERENCE_BUILTINS = {
    r"\bintel_sub_group_\w+_matrix_mad_k\d+\b": "matrix_mad_reference.cl",
}


def with_reference_builtins(src, kn):
    """(source, note): the source with REFERENCE_BUILTINS' definitions of the builtins
    the kernel calls put first, and what was added."""
    added = []
    for pattern, name in REFERENCE_BUILTINS.items():
        if re.search(pattern, reachable_text(src, kn)):
            path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
            src = open(path).read() + "\n#line 1\n" + src
            added.append(f"tools/{name}")
    return src, (f", builtins from {' and '.join(added)}" if added else "")


def compare_second(seconds, row, src, kn, simd, global_, local, second_args, outputs, inputs, pocl_why):
    """Compares gpukit's buffers with the first --second implementation that runs the
    kernel; sets the row and returns True, or False when none ran it (the row keeps
    why, for the caller's fallback)."""
    job_src, reference = with_reference_builtins(src, kn)
    job = {"src": job_src, "options": build_options(src), "kernel": kn, "global": list(global_),
           "local": list(local), "args": second_args,
           "sub_groups": bool(re.search(r"sub_group", reachable_text(src, kn)))}
    answers = seconds.ask(job, simd)
    name, res = answers[-1]
    tried = "; ".join(f"{n}: {r['status']} ({r.get('detail', '')[:100]})" for n, r in answers)
    if res["status"] != "ran":
        row["second"] = tried
        return False
    impl = res.get("implementation", name)
    sg = res.get("sub_group_size")
    if job["sub_groups"] and sg != simd:
        row["status"] = "ran (not comparable)"
        row["detail"] = f"{impl} formed sub-groups of {sg}, IGC of {simd}; PoCL 3.1: {pocl_why}"
        return True
    rule = float_bound(src, kn, inputs)
    diffs = []
    masks = determined(kn, global_, local, outputs)
    for (i, dt, buf, n, outp) in outputs:
        got = open(outp, "rb").read()
        want = open(outp[: -len(".out")] + ".second", "rb").read()
        fd = first_diff(dt, got, want, masks.get(i), rule, kn)
        if dt.startswith("f"):
            row["max_ulp"] = max(row.get("max_ulp", 0), ulp_distance(dt, got, want, masks.get(i)))
        if fd:
            diffs.append(f"arg {i}[{fd[0]}]: gpukit {fd[1]} {name} {fd[2]} ({fd[3]} differ{fd[4]})")
    if diffs and res.get("racy"):
        row["status"] = "racy launch"
        row["detail"] = f"{name}'s two runs differ; give the kernel a shape in SHAPES"
        return True
    row["status"] = f"match ({name})" if not diffs else f"MISMATCH ({name})"
    why = f"PoCL 3.1: {pocl_why}; {impl}{res.get('detail') or ''}{reference}"
    if sg:
        why += f", sub-groups of {sg}"
    if kn in UNDETERMINED:
        why += f"; not compared where {UNDETERMINED[kn][1]}"
    if len(answers) > 1:
        why += "; before it " + "; ".join(f"{n}: {r['status']} ({r.get('detail', '')[:100]})"
                                          for n, r in answers[:-1])
    row["detail"] = "; ".join(diffs) if diffs else why
    if "max_ulp" in row:
        note_bound(row, rule, name)
    return True


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


def source_sets(dirs):
    """[(tag, directory)]: each --cl-dir, a directory of package directories expanded into
    them; the tag (the directory's name) prefixes file names when there is more than one."""
    dirs = dirs or [os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../shared/corpus/intel/cl")]
    out = []
    for d in dirs:
        if glob.glob(os.path.join(d, "*.cl")):
            out.append(d)
        else:
            out += sorted(p for p in glob.glob(os.path.join(d, "*")) if glob.glob(os.path.join(p, "*.cl")))
    if len(out) == 1:
        return [("", out[0])]
    return [(os.path.basename(os.path.normpath(d)), d) for d in out]


def compile_release(name, ocloc, cl_dir, work, device="tgllp", igc_env=None):
    """Compiles every source (with `igc_env`: only those that define noinline functions,
    under those IGC settings) and returns {file: (dir, binary)}."""
    out = {}
    for src in sorted(glob.glob(os.path.join(cl_dir, "*.cl"))):
        f = os.path.splitext(os.path.basename(src))[0]
        if igc_env and "noinline" not in open(src).read():
            continue
        d = os.path.join(work, name, f)
        binary = os.path.join(d, f)
        failed = os.path.join(d, "ocloc.failed")  # ocloc's output when it built nothing
        if not (os.path.exists(binary) or os.path.exists(binary + ".bin") or os.path.exists(failed)):
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
            shutil.copy(src, d)
            opts = ""
            m = re.search(r"//\s*OCLOC_OPTIONS:(.*)", open(src).read())
            if m:
                opts = m.group(1).strip()
            cmd = [ocloc, "compile", "-file", f + ".cl", "-device", device, "-output_no_suffix", "-output", f]
            if opts:
                cmd += ["-options", opts]
            env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir="dump/", **(igc_env or {}))
            r = run(cmd, cwd=d, env=env)
            if not (os.path.exists(binary) or os.path.exists(binary + ".bin")):
                with open(failed, "w") as fh:
                    fh.write(r.stdout + r.stderr)
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



# ---- Inputs for kernels nobody wrote for this oracle (tests/realworld) ----
# Real kernels take sizes as scalars and index buffers with them; the generic SCALAR_INT
# would send them past their buffers (and --scalar-int sets the value of the others). The rules below are by the parameter's name and
# apply to every kernel (the corpus kernels' names never match them by accident: their
# results are the same as before the rules, see the shared-corpus run).
IMAGE_SHAPE = ((16, 16), (8, 8))  # kernels with image arguments: one work item per texel
SHAPE_2D = ((16, 16), (8, 8))     # kernels that ask for get_global_id(1) and friends
ROWS_1D = 16                      # a height-like scalar of a 1-D launch


def name_tokens(name):
    """'srcStep' / 'src_step' -> ['src', 'step']"""
    name = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name or "")
    return [t for t in re.split(r"[_\W]+", name.lower()) if t]


WIDTH_WORDS = {"width", "w", "cols", "ncols", "nx", "sizex", "xsize"}
HEIGHT_WORDS = {"height", "h", "rows", "nrows", "ny", "sizey", "ysize"}
COUNT_WORDS = {"n", "count", "num", "len", "length", "size", "total", "elements", "nelem",
               "nelements", "items", "nb", "nitems", "elems"}
STEP_WORDS = {"step", "stride", "pitch", "linesize", "ld", "lda", "ldb", "ldc"}
OFFSET_WORDS = {"offset", "ofs", "off", "start", "first", "begin"}


def scalar_for_name(name, global_):
    """The value of an integer scalar parameter from its name, or None for SCALAR_INT:
    widths get the launch's x size, heights its y size (ROWS_1D on a 1-D launch), row
    steps a row of 16-byte elements, offsets 0, counts the number of work items."""
    toks = name_tokens(name)
    if not toks:
        return None
    width = global_[0]
    height = global_[1] if len(global_) > 1 else ROWS_1D
    last, pair = toks[-1], "".join(toks[-2:])
    if last in OFFSET_WORDS or (len(toks) > 1 and toks[-2] in OFFSET_WORDS):
        return 0
    if last in STEP_WORDS:
        return width * 16
    if last in WIDTH_WORDS or pair in WIDTH_WORDS:
        return width
    if last in HEIGHT_WORDS or pair in HEIGHT_WORDS:
        return height
    if last in COUNT_WORDS:
        return int(np.prod(global_))
    return None


def kernel_params(src, kernel):
    """[(type text, name)] of the kernel's parameters, read from its source (PoCL's arg
    info is unavailable when PoCL cannot build the source)."""
    text = strip_comments(src)
    m = re.search(r"\b(?:__)?kernel\b[^;{}]*?\b" + re.escape(kernel) + r"\s*\(", text)
    if not m:
        return []
    depth, j = 1, m.end()
    while j < len(text) and depth:
        depth += {"(": 1, ")": -1}.get(text[j], 0)
        j += 1
    params = []
    for p in text[m.end():j - 1].split(","):
        p = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", p).strip()
        n = re.search(r"([A-Za-z_]\w*)\s*(\[[^\]]*\])?\s*$", p)
        if not n or p == "void":
            continue
        t = p[:n.start()].strip()
        for q in ("__global", "global", "__constant", "constant", "__local", "local", "__private",
                  "private", "const", "volatile", "restrict", "__restrict", "unsigned "):
            t = re.sub(r"\b" + re.escape(q.strip()) + r"\b", "u" if q == "unsigned " else " ", t)
        t = re.sub(r"\bu\s+", "u", t)
        t = re.sub(r"\s+", "", t).replace("*", " *").strip()
        t = t.replace(" *", "*")
        params.append((t, n.group(1)))
    return params


def launch_shape(kn, src, info_args):
    """SHAPES, else: the source's `// LAUNCH:` line, one work item for kernels that ask
    for no work-item ID or size, image kernels IMAGE_SHAPE, kernels asking for a second
    dimension SHAPE_2D, others DEFAULT_SHAPE; a reqd_work_group_size in the source sets the local
    size (and the global one to at least that)."""
    if kn in SHAPES:
        return SHAPES[kn]
    # The package's own launch, where its test harness states one (oclgrind's .sim files,
    # copied by tests/realworld/regen.sh)
    m = re.search(r"//\s*LAUNCH:\s*global\s+(\d+)\s+(\d+)\s+(\d+)\s+local\s+(\d+)\s+(\d+)\s+(\d+)", src)
    if m:
        v = [int(x) for x in m.groups()]
        dims = 3 if v[2] > 1 else 2 if v[1] > 1 else 1
        return tuple(v[:dims]), tuple(v[3:3 + dims])
    text = strip_comments(src)
    body = reachable_text(src, kn)
    if body and not re.search(r"\bget_\w*(id|size)\s*\(", body) and "work_group" not in body and "sub_group" not in body:
        # No work item can tell itself from another (starpu's `val[0]++` tests): the
        # source is written for one work item; more would race on the same element.
        shape = ((1,), (1,))
    elif any(a["kind"] == "image" for a in info_args):
        shape = IMAGE_SHAPE
    elif re.search(r"get_(global|local|group)_id\s*\(\s*1\s*\)|get_global_size\s*\(\s*1", body):
        shape = SHAPE_2D
    else:
        shape = DEFAULT_SHAPE
    m = re.search(r"reqd_work_group_size\s*\(\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*\)\s*\)\s*\)[^;{}]*?\b"
                  + re.escape(kn) + r"\s*\(", text)
    if m:
        req = [int(v) for v in m.groups()]
        dims = 2 if req[1] > 1 or len(shape[0]) > 1 else 1
        local = tuple(req[:dims])
        glob = tuple(max(l, (shape[0][d] if d < len(shape[0]) else 1) // l * l) for d, l in enumerate(local))
        shape = (glob, local)
    return shape

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


def ulp_distance(dtype, got, want, mask=None):
    """Largest distance in units in the last place between two float buffers (NaN pairs
    count as equal, NaN against a number as infinite)."""
    g = np.frombuffer(got, dtype=dtype); w = np.frombuffer(want, dtype=dtype)
    n = min(len(g), len(w))
    if n == 0:
        return 0
    g, w = g[:n], w[:n]
    if mask is not None:
        keep = np.asarray(mask, dtype=bool)[:n]
        g, w = g[keep], w[keep]
        if len(g) == 0:
            return 0
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


# ---- Float comparison: ULP bounds from the OpenCL C specification ----
# Single-precision bounds of each builtin, full profile: OpenCL C 3.0 specification,
# section 7.4 "Relative Error as ULPs", table "ULP values for single precision built-in
# math functions". 0 means the spec requires the correctly rounded result ("Correctly
# rounded" in the table, or an exact operation such as fabs/fmin/copysign), so two
# conforming implementations agree exactly on the same inputs. The single-precision
# numbers serve half and double outputs too, in their own ulps (a simplification: the
# only half outputs, float_to_half_store's, are compared with a numpy reference).
ULP_BOUNDS = {
    "/": 2.5, "divide": 2.5, "recip": 2.5,  # x / y and 1.0 / x: <= 2.5 ulp
    "acos": 4, "acosh": 4, "acospi": 5, "asin": 4, "asinh": 4, "asinpi": 5,
    "atan": 5, "atanh": 5, "atanpi": 5, "atan2": 6, "atan2pi": 6, "cbrt": 2,
    "ceil": 0, "clamp": 0, "copysign": 0, "cos": 4, "cosh": 4, "cospi": 4,
    "degrees": 2, "erfc": 16, "erf": 16, "exp": 3, "exp2": 3, "exp10": 3, "expm1": 3,
    "fabs": 0, "fdim": 0, "floor": 0, "fma": 0, "fmax": 0, "fmin": 0, "fmod": 0,
    "fract": 0, "frexp": 0, "hypot": 4, "ilogb": 0, "ldexp": 0, "log": 3, "log2": 3,
    "log10": 3, "log1p": 2, "logb": 0, "max": 0, "maxmag": 0, "min": 0, "minmag": 0,
    "modf": 0, "nan": 0, "nextafter": 0, "pow": 16, "pown": 16, "powr": 16,
    "radians": 2, "remainder": 0, "remquo": 0, "rint": 0, "rootn": 16, "round": 0,
    "rsqrt": 2, "sign": 0, "sin": 4, "sincos": 4, "sinh": 4, "sinpi": 4, "sqrt": 3,
    "step": 0, "tan": 5, "tanh": 5, "tanpi": 6, "tgamma": 16, "trunc": 0,
    # Geometric functions (same table): distance <= 2.5 + 2n ulp, length <= 2.75 + 0.5n,
    # normalize <= 2 + n; taken at the widest vector, n = 4.
    "distance": 10.5, "length": 4.75, "normalize": 6,
    # mad: "implemented either as a correctly rounded fma or as a multiply followed by an
    # add both of which are correctly rounded": 0 ulp on the result, plus the
    # contraction allowance below (the two choices differ by the product's rounding).
    "mad": 0,
    # half_*: <= 8192 ulp (the table's half_ rows).
    "half_": 8192,
    # native_*: the table says "implementation-defined", so the spec gives no number.
    # The oracle's choice, documented as such: the half_ bound, 8192 ulp. Each prefix
    # counts once per kernel however many half_/native_ builtins it calls (summing
    # 8192 per call would make the bound meaningless; measured today: 2 ulp).
    "native_": 8192,
}
# Builtins whose spec bound is absolute, not in ULPs ("absolute error tolerance"):
# dot: max * max * (2n - 1) * FLT_EPSILON; cross: max * max * 3 * FLT_EPSILON (max: the
# largest input operand magnitude); mix 1e-3 and smoothstep 1e-5 (flat). The value is
# the factor k of k * FLT_EPSILON * S below (n = 4 for dot), or the flat tolerance.
ABS_FACTORS = {"dot": 7, "cross": 3}
ABS_FLAT = {"mix": 1e-3, "smoothstep": 1e-5}
# Contraction: OpenCL C lets a compiler fuse a * b + c into one fma (FP_CONTRACT is on
# by default), and IGC and PoCL decide differently. Fused and unfused differ by the
# rounding of the product, at most 0.5 ulp of a * b. Without cancellation that is <= 1
# ulp of the result, the allowance added to every kernel's bound; under cancellation
# (|a * b + c| much smaller than |a * b|) it is many ulps of the result, and ULPs stop
# meaning anything: the absolute rule below takes over.
CONTRACTION_ULP = 1
# The absolute rule (cancellation): an element also agrees when
#     |gpukit - PoCL| <= (bound + sum of ABS_FACTORS of the builtins used) * eps * S
# where eps is the type's machine epsilon and S the operand scale: by default the square
# of the largest magnitude among the kernel's float inputs (buffers, and SCALAR_FLOAT,
# the value of every float by-value argument), at least 1 -- the form of the spec's own
# absolute bounds for dot and cross (max * max * k * FLT_EPSILON), a product of two
# inputs being the largest operand of an add that cancels. Kernels whose source builds
# larger intermediates from literals set S in OPERAND_SCALE. For outputs much smaller
# than S this is the weaker test (saxpy_like: |diff| <= 1.7e-6 wherever ULPs fail).
#
# Why the large distances measured (the vISA dumps' mad counts show the contraction):
# - saxpy_like (32-64 ulp, 4-6 elements): mad(r, b, -x) cancels when r * b ~ x, and
#   copysign(r, x) + fdim(x, y) cancels again; IGC contracts (2 mad at 1.0.5353, 4-5 at
#   2.x), PoCL does not do the same. E.g. y[54] = -0.03125 where r * b = -2.26: the two
#   differ by 1.2e-7, half an ulp of r * b, 64 ulp of the result. The absolute rule.
# - noise_field (19 ulp at IGC 1.0.5353 only): see OPERAND_SCALE; IGC 1.0.5353 fuses one
#   of smooth_step_poly's multiply-adds, IGC 2.x two (as PoCL: 0 ulp).
# - lighting (36-512 ulp): see PROPAGATION; IGC 2.x fuses dot's multiply-adds (3-4 mad),
#   IGC 1.0.5353 none, and pow(d, 16) multiplies d's difference 16-fold.
OPERAND_SCALE = {
    # smooth_step_poly: t * (t * 6 - 15) + 10 with t in [0, 1]: the product reaches
    # -9 at t = 1 and the add cancels it to 1; the literals 15 and 10 set the scale.
    "noise_field": (15.0, "t * (t * 6 - 15) + 10 cancels products up to 15 to 1"),
}
# Error propagation the per-builtin sum cannot express: a builtin's bound holds for the
# same inputs, and when an earlier result already differs (within its own bound) a
# later builtin amplifies the difference by its condition number. Per kernel: a
# function (expected array, S, summed bound) -> per-element ULP bound, replacing the
# summed bound (the absolute rule still applies).
def _lighting_bounds(want, scale, base):
    # color[i] = (d, pow(d, 16), d * pow(d, 16), 1) with d = fmax(dot(n, light), 0); the
    # second shade() adds (0, 0, 0, 1) (c.x > 0.5 makes dot(n, -light) negative). d may
    # differ by dot's absolute bound 7 * eps * S, which is e = 7 eps S / ulp(d) ulps of
    # d; x^16 has condition number 16 in x, d * d^16 17: lanes 1 and 2 may differ by
    # 17 * e + base ulps. Near d = 0 (the dot cancelled) e is large, as it must be.
    w = np.asarray(want, dtype=np.float32).reshape(-1, 4)
    d = np.abs(w[:, 0]).astype(np.float64)
    ulp_d = np.spacing(np.maximum(d, np.finfo(np.float32).tiny).astype(np.float32)).astype(np.float64)
    e = 7 * np.finfo(np.float32).eps * scale / ulp_d
    out = np.full(w.shape, float(base))
    out[:, 1] = out[:, 2] = 17 * e + base
    return out.reshape(-1)


PROPAGATION = {
    "lighting": (_lighting_bounds, "dot's absolute error amplified x16 by pow(d, 16), x17 by d * pow(d, 16)"),
}


def strip_comments(src):
    src = re.sub(r"/\*.*?\*/", " ", src, flags=re.S)
    return re.sub(r"//[^\n]*", " ", src)


def closing_brace(text, open_at):
    """Index of the `}` matching the `{` at `open_at` (len(text) if unbalanced)."""
    depth, j = 0, open_at
    while j < len(text):
        depth += {"{": 1, "}": -1}.get(text[j], 0)
        if depth == 0:
            break
        j += 1
    return j


def function_bodies(src):
    """name -> body text of each function defined at file scope (brace matching)."""
    out = {}
    for m in re.finditer(r"\b([A-Za-z_]\w*)\s*\([^;{)]*\)\s*\{", src):
        j = closing_brace(src, m.end() - 1)
        out.setdefault(m.group(1), src[m.end():j])
    return out


def defines(options):
    """The macro definitions of an ocloc option string, as PoCL takes them: `-DX`,
    `-DX=V` and the two-word `-D X=V` (opencv's spelling) each become one `-DX=V`."""
    words = shlex.split(options)
    out = []
    for i, w in enumerate(words):
        if w == "-D" and i + 1 < len(words):
            out.append("-D" + words[i + 1])
        elif w.startswith("-D") and w != "-D":
            out.append(w)
    return out


def reachable_text(src, kernel):
    """The text of `kernel`'s body and of every function of the same source it calls,
    transitively (comments stripped)."""
    bodies = function_bodies(strip_comments(src))
    seen, todo, text = set(), [kernel], ""
    while todo:
        f = todo.pop()
        if f in seen or f not in bodies:
            continue
        seen.add(f)
        text += bodies[f] + "\n"
        todo += [c for c in re.findall(r"\b([A-Za-z_]\w*)\s*\(", bodies[f]) if c in bodies]
    return text


def builtins_used(src, kernel):
    """The builtins of ULP_BOUNDS/ABS_* the kernel's text calls, with the text of the
    helper functions of the same file it calls (transitively). A regex over identifiers
    followed by `(`: a builtin named but unused (in dead code) still counts, which only
    widens the bound. `/` counts as division (also when integer: wider, not narrower)."""
    text = reachable_text(src, kernel)
    used = set()
    for name in re.findall(r"\b([A-Za-z_]\w*)\s*\(", text):
        if name.startswith(("native_", "half_")):
            used.add(name)
        elif name in ULP_BOUNDS or name in ABS_FACTORS or name in ABS_FLAT:
            used.add(name)
    if re.search(r"[^/*]/(?![/*])", text):
        used.add("/")
    return sorted(used)


def float_bound(src, kernel, inputs):
    """The kernel's comparison rule: {ulp, k, flat, scale, used}. ulp = CONTRACTION_ULP + sum of
    the ULP bounds of the builtins used (each builtin once: a conservative composition
    that assumes no amplification between them; PROPAGATION covers where that fails)."""
    used = builtins_used(src, kernel)
    def ulp_of(b):
        for prefix in ("native_", "half_"):
            if b.startswith(prefix):
                return ULP_BOUNDS[prefix]
        return ULP_BOUNDS.get(b, 0)
    groups = {b if not b.startswith(("native_", "half_")) else b.split("_")[0] + "_" for b in used}
    ulp = CONTRACTION_ULP + sum(ulp_of(b) for b in groups)
    if kernel in OPERAND_SCALE:
        scale = OPERAND_SCALE[kernel][0]
    else:
        mags = [1.0, SCALAR_FLOAT]
        mags += [float(np.nanmax(np.abs(v))) for v in inputs.values() if v.dtype.kind == "f" and v.size]
        scale = max(mags) ** 2
    k = ulp + sum(ABS_FACTORS.get(b, 0) for b in used)
    flat = sum(ABS_FLAT.get(b, 0) for b in used)
    return {"ulp": ulp, "k": k, "flat": flat, "scale": scale, "used": used}


def ulp_array(dtype, g, w):
    """Element-wise distance in ULPs (NaN pairs 0, NaN against a number infinite)."""
    bits = {"f2": (np.int16, 15), "f4": (np.int32, 31), "f8": (np.int64, 63)}[dtype]
    def ordered(x):
        i = x.view(bits[0]).astype(object if bits[0] is np.int64 else np.int64)
        return np.where(i < 0, -(i & ((1 << bits[1]) - 1)), i)
    d = np.abs(ordered(g) - ordered(w)).astype(np.float64)
    d = np.where(np.isnan(g) ^ np.isnan(w), np.inf, d)
    return np.where(np.isnan(g) & np.isnan(w), 0.0, d)


def pocl_reason(program):
    """The first error line of PoCL's build log (or the linker's missing symbol)."""
    text = program if isinstance(program, str) else ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("error:"):
            # clang names the macro expansion's spelling place too: `<Spelling=FILE:L:C>`
            return re.sub(r"^error: \S+?:(\d+):\d+:?(?: <Spelling=[^>]*>)?:", r"line \1:", line)[:120]
        if line.startswith("Cannot find symbol"):
            return line[:120]
    return text[-120:].replace("\n", " ")


def first_diff(dtype, got, want, mask=None, rule=None, kernel=None):
    """None when equal, else (index, got, want, count, note) of the first difference;
    `mask`, when given, names the elements to compare. Floats agree within the kernel's
    `rule` (float_bound): its ULP bound (per element where PROPAGATION gives one), or,
    failing that, the absolute rule. Sets rule["abs_used"] to the number of elements
    only the absolute rule accepted."""
    g = np.frombuffer(got, dtype=dtype); w = np.frombuffer(want, dtype=dtype)
    note = ""
    if dtype.startswith("f"):
        rule = rule or {"ulp": CONTRACTION_ULP, "k": CONTRACTION_ULP, "flat": 0.0, "scale": 1.0}
        ud = ulp_array(dtype, g, w)
        bound = np.full(len(w), float(rule["ulp"]))
        if kernel in PROPAGATION and len(w) % 4 == 0:
            bound = PROPAGATION[kernel][0](w, rule["scale"], rule["ulp"])
        by_ulp = ud <= bound
        limit = rule["k"] * float(np.finfo(dtype).eps) * rule["scale"] + rule["flat"]
        with np.errstate(invalid="ignore", over="ignore"):
            by_abs = np.abs(g.astype(np.float64) - w.astype(np.float64)) <= limit
        ok = by_ulp | by_abs
        rule["limit"] = limit
        if mask is not None:
            considered = np.asarray(mask, dtype=bool)
        else:
            considered = np.ones(len(w), dtype=bool)
        rule["abs_used"] = rule.get("abs_used", 0) + int((~by_ulp & by_abs & considered).sum())
    else:
        ok = g == w
    if mask is not None:
        ok = ok | ~np.asarray(mask, dtype=bool)
    bad = np.nonzero(~ok)[0]
    if len(bad) == 0:
        return None
    i = int(bad[0])
    if dtype.startswith("f"):
        note = f"; {ud[i]:g} ulp > bound {bound[i]:g}, |diff| > {limit:.3g}"
    return (i, g[i].item(), w[i].item(), len(bad), note)


def note_bound(row, rule, other):
    """Records the kernel's bound beside its measured largest ULP distance."""
    used = "+".join(rule["used"]) or "no builtins"
    bound = f"bound {rule['ulp']:g} ulp ({used} +{CONTRACTION_ULP} contraction)"
    if row["kernel"] in PROPAGATION:
        bound += ", per element: " + PROPAGATION[row["kernel"]][1]
    limit = rule.get("limit", 0.0)
    row["bound_ulp"] = rule["ulp"]
    row["abs_limit"] = limit
    row["abs_used"] = rule.get("abs_used", 0)
    text = f"floats: max {row['max_ulp']} ulp from {other}, {bound}"
    if row["abs_used"]:
        text += f"; {row['abs_used']} beyond it within the absolute rule |diff| <= {limit:.2g}"
    row["detail"] = text + ("; " + row["detail"] if row.get("detail") and not row["detail"].startswith("floats") else "")


# --isolate: a file whose child runs longer is stopped, and its kernel then running
# reported as "timed out" (PoCL or gpukit looping on inputs outside the kernel's domain).
CHILD_TIMEOUT = 600


def isolated_rows(a, name, f):
    """--isolate: the rows of one source file from a child process of this script, so
    that a kernel on which PoCL crashes (a segmentation fault in the kernel it runs: the
    real-world sets hold oclgrind's tests of invalid accesses) is reported as such and
    the file's other kernels still run."""
    rows, skip = [], []
    progress = os.path.join(a.work, "progress.txt")
    out = os.path.join(a.work, "child.json")
    while True:
        for p in (progress, out):
            if os.path.exists(p):
                os.remove(p)
        cmd = [sys.executable, os.path.abspath(__file__), "--only-target", name, "--only-file", f,
               "--progress", progress, "--json", out]
        for flag, values in (("--release", a.release), ("--cl-dir", a.cl_dir), ("--device", a.device)):
            for v in values or []:
                cmd += [flag, v]
        cmd += ["--work", a.work, "--gpukit", a.gpukit, "--scalar-int", str(a.scalar_int)]
        cmd += ["--no-pocl"] if a.no_pocl else []
        cmd += ["--stack-calls"] if a.stack_calls else []
        cmd += ["--check"] if a.check else []
        cmd += ["--gen"] if a.gen else []
        for v in a.second or []:
            cmd += ["--second", v]
        cmd += ["--require-second"] if a.require_second else []
        cmd += ["--only", a.only] if a.only else []
        for k in skip:
            cmd += ["--skip", k]
        try:
            r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                               timeout=CHILD_TIMEOUT)
            why = f"signal {-r.returncode}" if r.returncode < 0 else "no report"
        except subprocess.TimeoutExpired:
            r, why = None, f"still running after {CHILD_TIMEOUT} s"
        if r is not None and r.returncode >= 0 and os.path.exists(out):
            rows += json.load(open(out)).get(name, [])
            return rows
        kn = open(progress).read().strip() if os.path.exists(progress) else "?"
        rows.append({"release": name, "file": f, "kernel": kn,
                     "status": "PoCL crashed" if r is not None else "timed out",
                     "detail": f"the process running PoCL and gpukit on it: {why}"})
        if kn == "?" or kn in skip:
            return rows
        skip.append(kn)


# ---- --gen: the Gen code of each kernel (`gpukit iga run` on IGC's .asm dump) ----
# What the classification needs of a kernel's run, by row (kept out of the JSON report).
GEN_CONTEXT = {}


def gen_run(a, row, argv, visa, outputs, src, kn, inputs, global_, local):
    """Runs the kernel's Gen listing (the .asm beside its .visaasm) with visa run's
    arguments, each output buffer written to `.gen` instead of `.out`."""
    asm = visa[: -len(".visaasm")] + ".asm"
    for (i, dt, buf, n, outp) in outputs:  # references of an earlier run of this work dir
        for ext in (".want", ".second", ".gen"):
            stale = outp[: -len(".out")] + ext
            if os.path.exists(stale):
                os.remove(stale)
    if not os.path.exists(asm):
        row["gen_status"] = "no gen listing"
        return
    gen_argv, skip = [], False
    for j, v in enumerate(argv):
        if skip:
            skip = False
            continue
        if v == "--function":  # vISA functions: the Gen code has them inline
            skip = True
            continue
        if j > 0 and argv[j - 1] == "--out":
            v = v[: -len(".out")] + ".gen" if v.endswith(".out") else v
        gen_argv.append(v)
    cmd = [a.gpukit, "iga", "run", asm, "--binary", row["_binary"], "--kernel", kn,
           "--global", ",".join(map(str, global_)), "--local", ",".join(map(str, local)), "--json"] + gen_argv
    r = run(cmd)
    if r.returncode != 0:
        row["gen_status"] = "gen error"
        row["gen_detail"] = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
        return
    row["gen_stats"] = json.loads(r.stdout)
    GEN_CONTEXT[id(row)] = (outputs, src, kn, inputs, global_, local)


def gen_classify(row):
    """Sets the row's gen_status: match (the reference's rule, as the vISA run's
    comparison), match (vISA) where no reference compares (the Gen buffers equal
    visa run's bytes), MISMATCH with the first difference, or the error."""
    ctx = GEN_CONTEXT.pop(id(row), None)
    if ctx is None or "gen_status" in row:
        return
    outputs, src, kn, inputs, global_, local = ctx
    same, diffs = True, []
    compared = row["status"].startswith(("match", "MISMATCH"))
    rule = float_bound(src, kn, inputs) if np is not None else None
    masks = determined(kn, global_, local, outputs) if np is not None else {}
    for (i, dt, buf, n, outp) in outputs:
        base = outp[: -len(".out")]
        gen = open(base + ".gen", "rb").read() if os.path.exists(base + ".gen") else b""
        visa = open(outp, "rb").read() if os.path.exists(outp) else b""
        if gen != visa:
            same = False
            if len(gen) != len(visa) or np is None:
                where = f": {len(gen)} vs {len(visa)} bytes"
            else:
                fd = first_diff(dt, gen, visa) or first_diff("u1", gen, visa)
                where = f"[{fd[0]}]: Gen {fd[1]} vISA {fd[2]} ({fd[3]} differ)"
            row.setdefault("gen_visa", []).append(f"arg {i}{where}")
        ref = next((base + e for e in (".want", ".second") if os.path.exists(base + e)), None)
        if compared and ref:
            want = open(ref, "rb").read()
            fd = first_diff(dt, gen, want, masks.get(i), rule, kn) if len(gen) == len(want) else (0, "-", "-", "all", "")
            if fd:
                diffs.append(f"arg {i}[{fd[0]}]: Gen {fd[1]} ref {fd[2]} ({fd[3]} differ{fd[4]})")
    row["gen_same_as_visa"] = same
    if compared:
        row["gen_status"] = "match" if not diffs else "MISMATCH"
        row["gen_detail"] = "; ".join(diffs) if diffs else ("= vISA" if same else "vISA differs: " + "; ".join(row["gen_visa"]))
    else:
        row["gen_status"] = "match (vISA)" if same else "MISMATCH (vISA)"
        row["gen_detail"] = "" if same else "; ".join(row["gen_visa"])


def gen_report(report, target_of, known):
    """The per-kernel gen lines are printed by the caller; this prints the table per
    release and device and returns the failures not in `known` plus the listed gaps
    that no longer fail (stale entries: the list stays exact)."""
    print("== gen table: release    device  kernels gen-ran matched  match%  same-as-vISA  cpu(gen/vISA)")
    bad = 0
    failed, tried_keys = set(), set()
    for name, rows in report.items():
        device, igc_env = target_of.get(name, ("?", None))
        tried = [r for r in rows if r.get("gen_status") not in (None, "no gen listing")]
        matched = sum(r["gen_status"].startswith("match") for r in tried)
        same = sum(bool(r.get("gen_same_as_visa")) for r in tried)
        cpu_gen = sum(r.get("gen_stats", {}).get("cpu_nanoseconds", 0) for r in tried if "gen_stats" in r)
        cpu_visa = sum(r.get("stats", {}).get("cpu_nanoseconds", 0) for r in tried if "gen_stats" in r)
        pct = 100.0 * matched / len(tried) if tried else 0.0
        speed = f"{cpu_gen / cpu_visa:.2f}" if cpu_visa else "-"
        dev = device + ("+stackcall" if igc_env else "")
        print(f"== gen table: {name.split('-')[0]:10} {dev:15} {len(rows):4} {len(tried):7} {matched:7} {pct:6.1f}%  {same:12}  {speed}")
        for r in tried:
            keys = (r["kernel"], f"{r['file']}:{r['kernel']}")
            tried_keys.update((rel, k) for rel in (name, "*") for k in keys)
            if r["gen_status"].startswith("MISMATCH") or r["gen_status"] == "gen error":
                hit = [(rel, k) for rel in (name, "*") for k in keys if (rel, k) in known]
                failed.update(hit)
                if not hit:
                    bad += 1
    for (rel, k) in sorted(known):
        if (rel, k) not in failed and (rel, k) in tried_keys:
            print(f"== gen: STALE known gap {rel} {k}: it no longer fails")
            bad += 1
    return bad


def print_table(report, target_of):
    """The per-release, per-device table: kernels compared with PoCL or a second
    implementation (match, MISMATCH, gpukit error, known or not) and how many matched."""
    print("== table: release    device  kernels compared matched  match%  (others: ran without comparison)")
    for name, rows in report.items():
        device, igc_env = target_of.get(name, ("?", None))
        compared = [r for r in rows if r["status"].startswith(("match", "MISMATCH", "gpukit error"))]
        matched = sum(r["status"].startswith("match") for r in compared)
        pct = 100.0 * matched / len(compared) if compared else 0.0
        base = name.split("-")[0]
        dev = device + ("+stackcall" if igc_env else "")
        print(f"== table: {base:10} {dev:15} {len(rows):4} {len(compared):8} {matched:7} {pct:6.1f}%")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--release", action="append", required=True, help="NAME=OCLOC")
    ap.add_argument("--cl-dir", action="append",
                    help="directory of .cl sources (repeatable; default ../shared/corpus/intel/cl). A directory "
                         "without sources whose subdirectories hold them (tests/realworld's OUT/cl) stands for "
                         "each subdirectory, reported as <subdirectory>/<file>")
    ap.add_argument("--work", default="/tmp/gpukit-visa-oracle")
    ap.add_argument("--gpukit", default="gpukit")
    ap.add_argument("--no-pocl", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--only")
    ap.add_argument("--scalar-int", type=int, default=SCALAR_INT,
                    help="value of an integer scalar argument whose name says nothing (default %(default)s, "
                         "the corpus's; the real-world sets use 3: their unnamed scalars are radii, "
                         "iteration counts and depths that 100 drives past any buffer)")
    ap.add_argument("--check", action="store_true",
                    help="run every kernel that matches PoCL again with `visa run --check`: any finding "
                         "is a false positive (status CHECK FINDING)")
    ap.add_argument("--isolate", action="store_true",
                    help="run each source file in a child process, so that PoCL crashing on a kernel "
                         "reports that kernel as 'PoCL crashed' instead of ending the run")
    ap.add_argument("--only-target", help=argparse.SUPPRESS)
    ap.add_argument("--only-file", help=argparse.SUPPRESS)
    ap.add_argument("--skip", action="append", help=argparse.SUPPRESS)
    ap.add_argument("--progress", help=argparse.SUPPRESS)
    ap.add_argument("--known", action="append",
                    help="file of `release kernel  # why` lines (release `*`: every release; kernel "
                         "`file:kernel` where names repeat): known gaps that do not fail the run; repeatable "
                         "(one list per device: tools/visa_run_known_gaps*.txt)")
    ap.add_argument("--device", action="append",
                    help="ocloc -device to compile for (repeatable; default tgllp). Results of a device other "
                         "than tgllp are reported as release NAME-DEVICE; a release whose ocloc does not know "
                         "the device (no kernel compiles) is reported and skipped")
    ap.add_argument("--stack-calls", action="store_true",
                    help="also compile the sources with noinline functions with IGC's stack calls "
                         "(IGC_EnableStackCallFuncCall=1: fcall/fret, each function in its own "
                         "..._fN.visaasm), reported as release NAME-stackcall; a release whose IGC "
                         "ignores the setting runs subroutine calls as before")
    ap.add_argument("--second", action="append",
                    help="NAME=PYTHON: a python whose pyopencl sees one other OpenCL implementation "
                         "(tools/intel-cpu-ocl.sh, tools/sid-pocl.sh), for the kernels PoCL 3.1 cannot "
                         "build; repeatable, asked in order; reported as `match (NAME)`")
    ap.add_argument("--require-second", action="store_true",
                    help="fail on a kernel PoCL 3.1 cannot build that no --second implementation runs "
                         "(reported as UNCOMPARED, with each one's reason)")
    ap.add_argument("--gen", action="store_true",
                    help="also run each kernel's Gen code (the .asm IGC dumped beside the .visaasm) with "
                         "`gpukit iga run` and compare it with PoCL/--second and with visa run")
    ap.add_argument("--gen-known", action="append",
                    help="file of `release kernel  # why` lines: Gen failures that do not fail the run; "
                         "an entry that no longer fails does (the list stays exact)")
    ap.add_argument("--gen-write-known",
                    help="with --gen: write the Gen failures of this run to FILE in --gen-known's format "
                         "(each with its first difference, unsupported instruction or message)")
    ap.add_argument("--gen-only", action="store_true",
                    help="with --gen: the exit status is the Gen results' alone")
    a = ap.parse_args()
    seconds = SecondImplementations(a.second)
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
    for path in a.known or []:
        for line in open(path):
            line = line.split("#")[0].split()
            if len(line) >= 2:
                known.add((line[0], line[1]))
    targets = []
    for rel in a.release:
        base, ocloc = rel.split("=", 1)
        for device in a.device or ["tgllp"]:
            targets.append((base if device == "tgllp" else f"{base}-{device}", ocloc, device, None))
        if a.stack_calls:
            targets.append((f"{base}-stackcall", ocloc, "tgllp", {"IGC_EnableStackCallFuncCall": "1"}))
    for name, ocloc, device, igc_env in targets:
        built = {}
        for tag, cl_dir in source_sets(a.cl_dir):
            for f, found in compile_release(name, ocloc, cl_dir, os.path.join(a.work, tag), device, igc_env).items():
                built[os.path.join(tag, f) if tag else f] = found
        if not built:
            print(f"== {name}: ocloc {ocloc} compiled no kernel for -device {device} (the release does not know it)")
            continue
        rows = []
        if a.only_target and name != a.only_target:
            continue
        for f, (d, binary) in sorted(built.items()):
            if a.only_file and f != a.only_file:
                continue
            if a.isolate and not a.only_file:
                rows += isolated_rows(a, name, f)
                continue
            info = json.loads(run([a.gpukit, "intel", "info", binary, "--json"]).stdout or "{}")
            dumps = kernels_of(os.path.join(d, "dump"))
            src = open(os.path.join(d, os.path.basename(f) + ".cl")).read()
            program = None
            for k in info.get("kernels", []):
                kn = k["name"]
                if kn.startswith("Intel_Symbol_Table"):
                    continue  # zebin's symbol-table pseudo kernel
                if a.only and kn != a.only:
                    continue
                if kn in (a.skip or []):
                    continue
                if a.progress:
                    with open(a.progress, "w") as fh:
                        fh.write(kn)
                row = {"release": name, "file": f, "kernel": kn}
                rows.append(row)
                visa = dumps.get(kn, {}).get(k["simd_size"])
                if not visa:
                    row["status"] = "no vISA dump"
                    continue
                global_, local = launch_shape(kn, src, k["args"])
                total = int(np.prod(global_))
                params = kernel_params(src, kn)
                # Buffers hold every element a width x height (x row step) indexing reaches.
                extent = max(16 * total, 16384, global_[0] * 16 * (global_[1] if len(global_) > 1 else ROWS_1D))
                # argument types from PoCL's arg info (source built with -cl-kernel-arg-info)
                if ctx is not None and program is None:
                    try:
                        program = cl.Program(ctx, src).build(options=build_options(src))
                    except Exception as e:
                        program = str(e)
                argv = []
                second_args = []  # the same arguments for a --second implementation
                inputs = {}
                pocl_args = []
                outputs = []
                unsupported = None
                ck = None
                pocl_missing = None
                if isinstance(program, cl.Program if ctx else type(None)):
                    try:
                        ck = cl.Kernel(program, kn)
                    except Exception as e:
                        # PoCL built the source without this kernel (an #ifdef on an
                        # extension PoCL lacks, such as cl_khr_fp16): gpukit still runs it
                        pocl_missing = f"PoCL built the source without it ({e})"
                for arg in k["args"]:
                    i = arg["index"]
                    tname = ck.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME) if ck else None
                    pname = ck.get_arg_info(i, cl.kernel_arg_info.NAME) if ck else None
                    if ck is None and i < len(params):
                        # PoCL cannot build it: the source's own parameter list
                        tname, pname = params[i]
                    kind = arg["kind"]
                    if kind in ("stateless_pointer", "stateful_pointer"):
                        if tname:
                            pt = parse_type(tname)
                        else:
                            pt = ("u4", 1, True)
                        if not pt:
                            # a struct or other type the generator does not know: its bytes
                            # as uints, compared exactly
                            pt = ("u4", 1, True)
                        dt, lanes, _ = pt
                        data = gen(dt, extent * lanes, seed=i + 1)
                        path = os.path.join(d, f"{kn}.arg{i}.bin")
                        data.tofile(path)
                        inputs[i] = data
                        argv += ["--arg", f"{i}=file:{path}", "--out", f"{i}={path}.out"]
                        second_args.append({"kind": "buffer", "path": path, "out": path + ".second"})
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
                        order, ctype = fmt_name.split(".")
                        second_args.append({"kind": "image", "path": path, "out": path + ".second", "shape": shape,
                                            "order": order.upper(), "array": itype == "image2d_array",
                                            "type": {"f32": "FLOAT", "u32": "UNSIGNED_INT32"}[ctype]})
                        if ck is None:
                            # No PoCL 3.1 kernel to take the image; a --second implementation compares it.
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
                        second_args.append({"kind": "local", "size": 4096})
                        if ctx:
                            pocl_args.append(cl.LocalMemory(4096))
                    elif kind == "value" and tname in struct_values():
                        v = struct_values()[tname]
                        path = os.path.join(d, f"{kn}.arg{i}.val")
                        v.tofile(path)
                        argv += ["--arg", f"{i}=bytes:{path}"]
                        second_args.append({"kind": "value", "path": path})
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
                            by_name = scalar_for_name(pname, global_) if lanes == 1 else None
                            v = np.full(lanes, (a.scalar_int if by_name is None else by_name) if lanes == 1 else 3,
                                        dtype=dt)
                        path = os.path.join(d, f"{kn}.arg{i}.val")
                        v.tofile(path)
                        argv += ["--arg", f"{i}=bytes:{path}"]
                        second_args.append({"kind": "value", "path": path})
                        if ctx:
                            pocl_args.append(v if lanes > 1 else v[0])
                    else:
                        unsupported = f"argument {i} is {kind}"
                        break
                if unsupported:
                    if ctx and ck is None:
                        # No PoCL result either way: that is the first reason, and the
                        # generator's (a macro-named parameter type) the second.
                        row["status"] = "PoCL cannot build it"
                        row["detail"] = f"{pocl_missing or pocl_reason(program)}; gpukit not run: {unsupported}"
                    else:
                        row["status"] = "unsupported input"
                        row["detail"] = unsupported
                    continue
                # Functions called by fcall: IGC dumps each beside the kernel, as <kernel>_fN.visaasm.
                for fn in sorted(glob.glob(visa[: -len(".visaasm")] + "_f*.visaasm")):
                    argv += ["--function", fn]
                # One work-group at a time (as the Gen engine runs them): kernels whose result
                # depends on the order of atomics (float atomic sums, c11_atomics) then give the
                # same bytes on every run, comparable with the Gen run's.
                cmd = [a.gpukit, "visa", "run", visa, "--binary", binary, "--kernel", kn,
                       "--global", ",".join(map(str, global_)), "--local", ",".join(map(str, local)),
                       "--json", "--jobs", "1"] + argv
                r = run(cmd)
                if r.returncode != 0:
                    row["status"] = "gpukit error"
                    row["detail"] = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"
                    row["first"] = r.stderr.strip()
                    continue
                row["stats"] = json.loads(r.stdout)
                row["status"] = "ran"
                if a.gen:
                    row["_binary"] = binary
                    gen_run(a, row, argv, visa, outputs, src, kn, inputs, global_, local)
                    del row["_binary"]
                if not ctx:
                    continue
                if ck is None and seconds.specs and device not in UNDEFINED_ON_TARGET.get(kn, {}):
                    if compare_second(seconds, row, src, kn, k["simd_size"], global_, local, second_args,
                                      outputs, inputs, pocl_missing or pocl_reason(program)):
                        continue
                if device in UNDEFINED_ON_TARGET.get(kn, {}):
                    row["status"] = f"ran (undefined on {device})"
                    row["detail"] = UNDEFINED_ON_TARGET[kn][device]
                    continue
                if ck is None:
                    row["status"] = "ran (PoCL cannot build it)"
                    row["detail"] = pocl_missing or pocl_reason(program)
                    if row.get("second"):
                        row["detail"] += "; " + row["second"]
                        if a.require_second:
                            row["status"] = "UNCOMPARED"
                    continue
                try:
                    ck(queue, global_, local, *pocl_args)
                    queue.finish()
                except Exception as e:
                    row["status"] = "ran (PoCL failed)"
                    row["detail"] = str(e)[:200]
                    continue
                diffs = []
                rule = float_bound(src, kn, inputs)
                masks = determined(kn, global_, local, outputs)
                for (i, dt, buf, n, outp) in outputs:
                    want = np.empty(n, dtype=np.uint8)
                    if isinstance(buf, cl.Image):
                        shape = IMAGE_SIZE[next(a["image_type"] for a in k["args"] if a["index"] == i)]
                        cl.enqueue_copy(queue, want, buf, origin=(0,) * len(shape), region=shape)
                    else:
                        cl.enqueue_copy(queue, want, buf)
                    if a.gen:  # the reference the Gen run is compared with
                        with open(outp[: -len(".out")] + ".want", "wb") as fh:
                            fh.write(want.tobytes())
                    got = open(outp, "rb").read()
                    fd = first_diff(dt, got, want.tobytes(), masks.get(i), rule, kn)
                    if dt.startswith("f"):
                        row["max_ulp"] = max(row.get("max_ulp", 0), ulp_distance(dt, got, want.tobytes(), masks.get(i)))
                    if fd:
                        diffs.append(f"arg {i}[{fd[0]}]: gpukit {fd[1]} PoCL {fd[2]} ({fd[3]} differ{fd[4]})")
                if diffs and kn in ORDER_DEPENDENT:
                    # Checked first: such a kernel's PoCL runs may also differ from each other.
                    row["status"] = "ran (order-dependent)"
                    row["detail"] = ORDER_DEPENDENT[kn]
                    continue
                if diffs and racy_launch(cl, ctx, queue, ck, global_, local, pocl_args, outputs):
                    # PoCL disagrees with itself: the launch lets work items race (overlapping
                    # read-modify-writes), so no single answer exists to compare with. The cure
                    # is a launch shape in SHAPES that keeps work items apart.
                    row["status"] = "racy launch"
                    row["detail"] = "PoCL's two runs differ; give the kernel a shape in SHAPES"
                    continue
                row["status"] = "match" if not diffs else "MISMATCH"
                if diffs:
                    row["detail"] = "; ".join(diffs)
                elif a.check:
                    # Zero findings on kernels PoCL and gpukit agree on: any is a false positive.
                    c = run([x for x in cmd if x != "--json"] + ["--check"])
                    if c.returncode != 0:
                        row["status"] = "CHECK FINDING"
                        row["detail"] = c.stderr.strip().splitlines()[0] if c.stderr.strip() else f"exit {c.returncode}"
                if "max_ulp" in row:
                    note_bound(row, rule, "PoCL")
        report[name] = rows
        for row in rows:
            gen_classify(row)
        counts = {}
        for row in rows:
            if row["status"].startswith("MISMATCH") or row["status"] in ("gpukit error", "UNCOMPARED", "CHECK FINDING"):
                # `*` for the release: a gap of the source, whichever IGC compiled it
                keys = (row["kernel"], f"{row['file']}:{row['kernel']}")
                if any((r, k) in known for r in (name, "*") for k in keys):
                    row["status"] += " (known)"
                else:
                    bad += 1
            counts[row["status"]] = counts.get(row["status"], 0) + 1
            print(f"{name:9} {row['file']:20} {row['kernel']:26} {row['status']:18} {row.get('detail', '')[:260]}")
            if row.get("gen_status"):
                print(f"{name:9} {row['file']:20} {row['kernel']:26} gen: {row['gen_status']:13} {row.get('gen_detail', '')[:260]}")
        tags = sorted({r["file"].split("/")[0] for r in rows if "/" in r["file"]})
        for tag in tags if len(tags) > 1 else []:
            part = {}
            for row in rows:
                if row["file"].startswith(tag + "/"):
                    part[row["status"]] = part.get(row["status"], 0) + 1
            print(f"== {name} {tag}: {sum(part.values())} kernels: " + ", ".join(f"{v} {k}" for k, v in sorted(part.items())))
        print(f"== {name}: {len(rows)} kernels: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    print_table(report, {name: (device, igc_env) for name, _, device, igc_env in targets})
    if a.gen:
        gen_known = set()
        for path in a.gen_known or []:
            for line in open(path):
                line = line.split("#")[0].split()
                if len(line) >= 2:
                    gen_known.add((line[0], line[1]))
        gen_bad = gen_report(report, {name: (device, igc_env) for name, _, device, igc_env in targets},
                             gen_known)
        bad = gen_bad if a.gen_only else bad + gen_bad
        if a.gen_write_known:
            with open(a.gen_write_known, "w") as fh:
                for name, rows in report.items():
                    for r in rows:
                        st = r.get("gen_status", "")
                        if st.startswith("MISMATCH") or st == "gen error":
                            why = re.sub(r"^error: (\S+\.asm: )?(kernel \w+: )?", "", r.get("gen_detail", ""))
                            why = re.sub(r" \(work-group [^)]*\)$", "", why)
                            fh.write(f"{name:12} {r['kernel']:24} # {st}: {why[:160]}\n")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(report, fh, indent=1)
    seconds.close()
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if sys.argv[1:] == ["--serve"]:
        serve()
    else:
        main()
