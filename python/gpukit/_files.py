"""Inputs given as a path or as bytes, handed to a command as a file."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Union

from ._core import PathLike, Scratch, command_in

Source = Union[PathLike, bytes, bytearray, memoryview]


def json_report(args: list[str], source: Source, name: str, ok: tuple[int, ...] = (0,)) -> Any:
    """Runs `gpukit ARGS... --json FILE` on `source` and returns the parsed report."""
    with Scratch() as scratch:
        if isinstance(source, (bytes, bytearray, memoryview)):
            path = scratch.write(name, bytes(source))
        else:
            path = Path(os.fspath(source))
        _, stdout = command_in(scratch, [*args, "--json", path], ok=ok)
    return json.loads(stdout)
