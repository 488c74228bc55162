"""Intel vISA objects (`.isa`) and text (`.visaasm`): read, parse, print, write, verify.

Every call runs the `gpukit visa` command it corresponds to (`dis`, `fmt`, `asm`,
`verify`) in-process, so results and error messages are the command line's.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union

from ._core import PathLike, Scratch, command, command_in

__all__ = [
    "Declaration",
    "Instruction",
    "Routine",
    "VisaObject",
    "parse",
    "print",
    "read",
    "verify",
    "write",
]


@dataclass(frozen=True)
class Declaration:
    """One line of a routine's header: `.decl`, `.input`, `.kernel_attr`, ..."""

    kind: str
    """The directive without its dot: "decl", "input", "kernel_attr", "function", ..."""
    name: Optional[str]
    """What it declares (`V0032`, `SimdSize`), when it names something."""
    text: str


@dataclass(frozen=True)
class Instruction:
    """One vISA instruction, as IGC's text layout writes it."""

    opcode: str
    """The mnemonic with its modifiers, e.g. "add", "cmp.gt", "gather4_scaled.R"."""
    exec_size: Optional[int]
    """Execution size (channels), or None for instructions without one (`barrier`)."""
    mask: Optional[str]
    """Execution mask control, e.g. "M1" or "M1_NM"."""
    predicate: Optional[str]
    """The predicate, e.g. "P1" or "!P2", or None."""
    operands: tuple[str, ...]
    """The operands in text form, in order (`V0047(0,0)<1>`, `0x4:w`, `label0`)."""
    label: Optional[str]
    """The label this instruction follows directly, if any."""
    text: str


@dataclass(frozen=True)
class Routine:
    """A kernel or a function: its declarations and instructions."""

    name: str
    kind: str
    """"kernel" or "function"."""
    declarations: tuple[Declaration, ...]
    instructions: tuple[Instruction, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class VisaObject:
    """A vISA object: read from a `.isa` binary or parsed from text."""

    version: str
    kernels: tuple[Routine, ...]
    functions: tuple[Routine, ...]
    text: str
    """The object as IGC's text layout for its version (`gpukit visa dis`/`fmt`)."""
    binary: Optional[bytes]
    """The `.isa` bytes it was read from, or None for an object parsed from text."""

    def kernel(self, name: str) -> Routine:
        """The kernel called `name` (KeyError when there is none)."""
        for k in self.kernels:
            if k.name == name:
                return k
        raise KeyError(name)


def read(source: Union[PathLike, bytes, bytearray, memoryview]) -> VisaObject:
    """Reads a `.isa` binary or `.visaasm` text, from a path or from bytes.

    Raises `gpukit.InputError` with `gpukit visa dis`'s (or `fmt`'s) message when the
    input is invalid.
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
        with Scratch() as scratch:
            name = "input.isa" if _is_binary(data) else "input.visaasm"
            return _load(scratch, scratch.write(name, data), data)
    path = Path(os.fspath(source))
    try:
        data = path.read_bytes()
    except OSError:
        data = b""  # the command reports it, in its words
    with Scratch() as scratch:
        return _load(scratch, path, data if _is_binary(data) else None)


def parse(text: str) -> VisaObject:
    """Parses vISA text (what `gpukit visa fmt` accepts); errors name `input.visaasm:LINE:COL`."""
    with Scratch() as scratch:
        return _load(scratch, scratch.write("input.visaasm", text.encode()), None)


def print(obj: VisaObject) -> str:  # noqa: A001 (the API names it after the command's job)
    """The object as vISA text in IGC's layout for its version."""
    return obj.text


def write(obj: VisaObject) -> bytes:
    """The object as a `.isa` binary (`gpukit visa asm` for an object parsed from text)."""
    if obj.binary is not None:
        return obj.binary
    with Scratch() as scratch:
        text = scratch.write("input.visaasm", obj.text.encode())
        out = scratch.path / "output.isa"
        command_in(scratch, ["visa", "asm", text, "-o", out])
        return out.read_bytes()


def verify(obj: VisaObject, platform: Optional[str] = None) -> list[dict[str, Any]]:
    """The findings of `gpukit visa verify` (the spec's rules); an empty list when clean."""
    with Scratch() as scratch:
        if obj.binary is not None:
            path = scratch.write("input.isa", obj.binary)
        else:
            path = scratch.write("input.visaasm", obj.text.encode())
        args: list[PathLike] = ["visa", "verify", "--json", path]
        if platform is not None:
            args += ["--platform", platform]
        _, stdout = command_in(scratch, args, ok=(0, 1))
        report = json.loads(stdout)
    findings: list[dict[str, Any]] = report["findings"]
    return findings


def _is_binary(head: bytes) -> bool:
    return head[:4] == b"CISA"


def _load(scratch: Scratch, path: Path, binary: Optional[bytes]) -> VisaObject:
    _, stdout = command_in(scratch, ["visa", "dis" if binary is not None else "fmt", path])
    text = stdout.decode()
    return _from_text(text, binary)


# `(!P1) `, then the mnemonic, then `(M1_NM, 16)`; the rest are operands.
_PREDICATE = re.compile(r"\((!?[A-Za-z_0-9.]+)\)\s+")
_EXEC = re.compile(r"\((\w+),\s*(\d+)\)")
_OPENERS = {"(": ")", "<": ">", "[": "]", "{": "}"}


def _operands(rest: str) -> tuple[str, ...]:
    """Splits on spaces outside brackets: `<%r0, 0>` and `(0,0)<1;1,0>` stay whole."""
    out, depth, current = [], [], ""
    for c in rest:
        if c in _OPENERS:
            depth.append(_OPENERS[c])
        elif depth and c == depth[-1]:
            depth.pop()
        if c.isspace() and not depth:
            if current:
                out.append(current)
            current = ""
        else:
            current += c
    if current:
        out.append(current)
    return tuple(out)


def _instruction(line: str, label: Optional[str]) -> Instruction:
    body = line.split("///", 1)[0].strip()
    predicate = None
    m = _PREDICATE.match(body)
    if m:
        predicate, body = m.group(1), body[m.end():]
    opcode, _, rest = body.partition(" ")
    rest = rest.strip()
    mask = exec_size = None
    m = _EXEC.match(rest)
    if m:
        mask, exec_size, rest = m.group(1), int(m.group(2)), rest[m.end():]
    return Instruction(opcode, exec_size, mask, predicate, _operands(rest), label, line.strip())


class _RoutineBuilder:
    def __init__(self, name: str, kind: str) -> None:
        self.name, self.kind = name, kind
        self.declarations: list[Declaration] = []
        self.instructions: list[Instruction] = []
        self.labels: list[str] = []

    def build(self) -> Routine:
        return Routine(
            self.name,
            self.kind,
            tuple(self.declarations),
            tuple(self.instructions),
            tuple(self.labels),
        )


def _from_text(text: str, binary: Optional[bytes]) -> VisaObject:
    version = ""
    routines: list[_RoutineBuilder] = []
    label: Optional[str] = None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("//"):
            continue
        if line.startswith(".version"):
            version = line.split()[1]
        elif line.startswith((".kernel ", ".global_function ")):
            kind = "kernel" if line.startswith(".kernel ") else "function"
            routines.append(_RoutineBuilder(_unquote(line.split(None, 1)[1]), kind))
            label = None
        elif not routines:
            continue
        elif line.startswith("."):
            directive, _, rest = line[1:].partition(" ")
            name = re.split(r"[\s=]", rest.strip(), maxsplit=1)[0] or None
            routines[-1].declarations.append(Declaration(directive, _unquote(name), line))
        elif line.endswith(":") and " " not in line:
            label = line[:-1]
            routines[-1].labels.append(label)
        else:
            routines[-1].instructions.append(_instruction(raw, label))
            label = None
    built = [r.build() for r in routines]
    return VisaObject(
        version,
        tuple(r for r in built if r.kind == "kernel"),
        tuple(r for r in built if r.kind == "function"),
        text,
        binary,
    )


def _unquote(s: Optional[str]) -> Optional[str]:
    if s is not None and len(s) >= 2 and s[0] == s[-1] == '"':
        return s[1:-1]
    return s
