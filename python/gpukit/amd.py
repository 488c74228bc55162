"""AMD Catalyst OpenCL binaries (`.clo`) and their kernel metadata (`gpukit amd`)."""

from __future__ import annotations

from typing import Any, Optional

from ._files import Source, json_report

__all__ = ["info", "metadata"]


def metadata(source: Source, kernel: Optional[str] = None) -> Any:
    """The typed kernel metadata of a CL1 `.clo` or a metadata text (`gpukit amd meta --json`)."""
    args = ["amd", "meta"] + (["--kernel", kernel] if kernel else [])
    return json_report(args, source, "input.clo")


def info(source: Source) -> Any:
    """The summary of a CL1 or CL2 `.clo`: driver, device, kernels, arguments (`gpukit amd info --json`)."""
    return json_report(["amd", "info"], source, "input.clo")
