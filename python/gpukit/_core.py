"""Running gpukit commands in-process, and turning their failures into exceptions."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Iterable, Union

from . import _native

PathLike = Union[str, "os.PathLike[str]"]


class GpukitError(Exception):
    """A gpukit command failed; the message is the command's own, `code` its exit code."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


class InputError(GpukitError):
    """The input is invalid, or a check found something (the command's exit code 1)."""


class UsageError(GpukitError):
    """The request itself cannot be served: bad arguments, refused output (exit code 2)."""


def command(args: Iterable[PathLike], ok: Iterable[int] = (0,)) -> tuple[int, bytes]:
    """Runs `gpukit ARGS...` in this process; returns (exit code, stdout).

    An exit code outside `ok` raises `UsageError` (2) or `InputError` (anything else)
    with the command's error message.
    """
    code, stdout, message = _native.command([os.fspath(a) for a in args])
    if code in tuple(ok):
        return code, stdout
    error = UsageError if code == 2 else InputError
    raise error(message or f"gpukit exited with status {code}", code)


class Scratch:
    """A private temporary directory for the files a call hands to a command."""

    def __enter__(self) -> "Scratch":
        self._dir = tempfile.TemporaryDirectory(prefix="gpukit-")
        self.path = Path(self._dir.name)
        return self

    def __exit__(self, *exc: object) -> None:
        self._dir.cleanup()

    def write(self, name: str, data: bytes) -> Path:
        path = self.path / name
        path.write_bytes(data)
        return path

    def hide(self, message: str) -> str:
        """A message without the temporary directory: it names the file as given."""
        return message.replace(str(self.path) + os.sep, "")


def command_in(scratch: Scratch, args: Iterable[PathLike], ok: Iterable[int] = (0,)) -> tuple[int, bytes]:
    """`command`, with the scratch directory left out of error messages."""
    try:
        return command(args, ok)
    except GpukitError as e:
        raise type(e)(scratch.hide(str(e)), e.code) from None
