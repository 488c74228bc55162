"""gpukit: read, write, check and run the formats between GPU compilers and runtimes.

Every function runs the `gpukit` command it corresponds to in this process (no
subprocess), so results and error messages are the command line's: a failing command
raises `InputError` (its exit code 1) or `UsageError` (exit code 2).

    import gpukit
    obj = gpukit.visa.read("kernel.isa")
    obj.kernels[0].instructions[0].opcode
    gpukit.visa.verify(obj)                       # [] when clean
    gpukit.scan(["corpus/"]).to_pandas()          # one row per kernel
    out, = gpukit.run("k.visaasm", "k.bin", 64, 32, [np.zeros(64, np.float32)])
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional, Sequence, Union

from . import amd, iga, intel, visa
from ._core import GpukitError, InputError, PathLike, Scratch, UsageError, command, command_in
from ._native import __version__

if TYPE_CHECKING:
    import numpy
    import pyarrow

__all__ = [
    "GpukitError",
    "InputError",
    "Local",
    "UsageError",
    "__version__",
    "amd",
    "command",
    "iga",
    "intel",
    "run",
    "scan",
    "visa",
]


def scan(
    paths: Union[PathLike, Sequence[PathLike]],
    *,
    verify: bool = False,
    jobs: Optional[int] = None,
) -> "pyarrow.Table":
    """Every kernel under the given files and directories, one row each (`gpukit scan`).

    The rows are the scan's Parquet output read back as a `pyarrow.Table`
    (`.to_pandas()` for a DataFrame); a file that does not parse is a row with `error`.
    """
    import pyarrow.parquet

    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    with Scratch() as scratch:
        out = scratch.path / "rows.parquet"
        args: list[PathLike] = ["scan", *paths, "--format", "parquet", "-o", out]
        if verify:
            args.append("--verify")
        if jobs is not None:
            args += ["--jobs", str(jobs)]
        command_in(scratch, args)
        return pyarrow.parquet.read_table(out)


@dataclass(frozen=True)
class Local:
    """A `__local` pointer argument of `nbytes` bytes (`visa run --arg N=local:BYTES`)."""

    nbytes: int


# numpy scalar kinds as `visa run`'s TYPE:VALUE names them.
_SCALAR_TYPES = {
    "int8": "i8", "uint8": "u8", "int16": "i16", "uint16": "u16",
    "int32": "i32", "uint32": "u32", "int64": "i64", "uint64": "u64",
    "float32": "f32", "float64": "f64",
}  # fmt: skip


def _size(size: Union[int, Sequence[int]]) -> str:
    return str(size) if isinstance(size, int) else ",".join(str(int(s)) for s in size)


def run(
    kernel_file: PathLike,
    binary: PathLike,
    global_size: Union[int, Sequence[int]],
    local_size: Union[int, Sequence[int]],
    args: Sequence[object] = (),
    kernel: Optional[str] = None,
    functions: Sequence[PathLike] = (),
    max_instructions: Optional[int] = None,
) -> "list[numpy.ndarray]":
    """Runs a kernel's vISA on the CPU, as `gpukit visa run` does; like pyopencl's enqueue.

    `kernel_file` is the kernel's `.visaasm` or `.isa`, `binary` the program binary
    ocloc wrote beside it (the kernel ABI). `args` are the kernel's arguments in order:
    a numpy array is a global buffer (its bytes, C order), a numpy scalar a value of its
    type, a Python int an `int` (i32), a float a `float` (f32), `Local(n)` a `__local`
    pointer, and a str is passed as `visa run`'s own `--arg` spec (e.g. an image).

    Returns one numpy array per buffer argument, in order, with its input's dtype and
    shape, holding the buffer after the run.
    """
    import numpy as np

    with Scratch() as scratch:
        argv: list[PathLike] = ["visa", "run", kernel_file, "--binary", binary]
        argv += ["--global", _size(global_size), "--local", _size(local_size)]
        if kernel is not None:
            argv += ["--kernel", kernel]
        for f in functions:
            argv += ["--function", f]
        if max_instructions is not None:
            argv += ["--max-instructions", str(max_instructions)]
        buffers = []
        for i, a in enumerate(args):
            if isinstance(a, np.ndarray):
                data = np.ascontiguousarray(a)
                source = scratch.write(f"arg{i}.bin", data.tobytes())
                out = scratch.path / f"out{i}.bin"
                argv += ["--arg", f"{i}=file:{source}", "--out", f"{i}={out}"]
                buffers.append((out, data.dtype, data.shape))
            else:
                argv += ["--arg", f"{i}={_scalar_spec(a)}"]
        command_in(scratch, argv)
        return [
            np.frombuffer(out.read_bytes(), dtype=dtype).reshape(shape).copy()
            for out, dtype, shape in buffers
        ]


def _scalar_spec(a: object) -> str:
    import numpy

    if isinstance(a, Local):
        return f"local:{a.nbytes}"
    if isinstance(a, str):
        return a
    if isinstance(a, numpy.generic):
        kind = _SCALAR_TYPES.get(a.dtype.name)
        if kind is None:
            raise UsageError(f"argument of numpy type {a.dtype.name} has no visa run type", 2)
        return f"{kind}:{a.item()!r}"
    if isinstance(a, bool):
        return f"i32:{int(a)}"
    if isinstance(a, int):
        return f"i32:{a}"
    if isinstance(a, float):
        return f"f32:{a!r}"
    raise UsageError(
        f"argument of type {type(a).__name__}: give a numpy array, a numpy scalar, int, float, Local or str",
        2,
    )
