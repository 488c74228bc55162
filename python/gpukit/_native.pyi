"""The native part of gpukit: one call that runs a `gpukit` command line in-process."""

import os
from typing import Sequence, Union

__version__: str

def command(args: Sequence[Union[str, os.PathLike[str]]]) -> tuple[int, bytes, str]:
    """Runs `gpukit ARGS...`; returns (exit code, stdout, error message)."""
