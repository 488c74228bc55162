"""Intel OpenCL program binaries written by ocloc (patch tokens, zebin): the kernel ABI."""

from __future__ import annotations

from typing import Any

from ._files import Source, json_report

__all__ = ["program"]


def program(source: Source) -> Any:
    """Kernels, arguments, implicit arguments, SIMD size, Gen code (`gpukit intel info --json`)."""
    return json_report(["intel", "info"], source, "input.bin")
