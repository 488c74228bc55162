"""IGA JSON listings (`iga64 -Xprint-json`), checked and summarised by `gpukit iga`."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any

from ._files import Source, json_report

__all__ = ["Listing", "read"]


@dataclass(frozen=True)
class Listing:
    """An IGA JSON listing: its document and `gpukit iga stats`' summary of it."""

    document: Any
    """The listing as iga64 wrote it (`json.loads`)."""
    stats: dict[str, Any]
    """Instruction mix, send and SBID counts, register pressure (`gpukit iga stats --json`)."""

    @property
    def instructions(self) -> list[dict[str, Any]]:
        """The listing's instructions in order (its `insts` (1.0) or `elems` (2.0) of kind "I")."""
        doc = self.document
        if not isinstance(doc, dict):
            return []
        elements = doc.get("insts", doc.get("elems", []))
        return [e for e in elements if isinstance(e, dict) and e.get("kind") == "I"]


def read(source: Source) -> Listing:
    """Reads an IGA JSON listing from a path or bytes; `gpukit.InputError` when invalid."""
    stats = json_report(["iga", "stats"], source, "input.json")
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    else:
        with open(os.fspath(source), "rb") as f:
            data = f.read()
    report = stats[0] if isinstance(stats, list) and len(stats) == 1 else stats
    return Listing(json.loads(data.decode("utf-8-sig")), report)
