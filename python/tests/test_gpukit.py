"""The Python API against the repository's fixtures (and the corpus when it is beside
the checkout): each call must agree with the `gpukit` command it stands for."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import gpukit

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data"
RUN = DATA / "visa" / "run"
CORPUS = REPO.parent / "shared" / "corpus"


def gpukit_binary() -> str | None:
    """The command-line gpukit to compare with: $GPUKIT_BIN, a built one, or one on PATH."""
    for candidate in (
        os.environ.get("GPUKIT_BIN"),
        REPO / "target" / "release" / "gpukit",
        REPO / "target" / "debug" / "gpukit",
        shutil.which("gpukit"),
    ):
        if candidate and Path(candidate).is_file():
            return str(candidate)
    return None


def test_read_binary_gives_kernels_declarations_and_instructions():
    obj = gpukit.visa.read(DATA / "visa" / "l02_local_sum__local_sum.isa")
    assert obj.version == "3.6"
    assert [k.name for k in obj.kernels] == ["local_sum"]
    k = obj.kernels[0]
    decls = [d for d in k.declarations if d.kind == "decl"]
    assert decls[0].name == "V0032"
    first = k.instructions[0]
    assert (first.opcode, first.mask, first.exec_size) == ("or", "M1_NM", 1)
    assert first.operands == ("%cr0(0,0)<1>", "%cr0(0,0)<0;1,0>", "0x4c0:ud")
    goto = next(i for i in k.instructions if i.opcode == "goto")
    assert goto.predicate == "!P1" and goto.operands == ("label0",)
    assert "label1" in k.labels


def test_read_bytes_print_write_round_trip():
    path = DATA / "visa" / "l02_local_sum__local_sum.isa"
    data = path.read_bytes()
    obj = gpukit.visa.read(data)
    text = gpukit.visa.print(obj)
    assert text.startswith(".version 3.6\n.kernel \"local_sum\"")
    assert gpukit.visa.write(obj) == data
    again = gpukit.visa.parse(text)
    assert again.binary is None and gpukit.visa.print(again) == text
    # Assembled from text: the same routines (a binary also carries Gen code text lacks).
    written = gpukit.visa.read(gpukit.visa.write(again))
    assert written.kernels == obj.kernels


def test_verify_returns_findings():
    obj = gpukit.visa.read(DATA / "visa" / "l02_local_sum__local_sum.isa")
    assert gpukit.visa.verify(obj) == []


def test_errors_are_exceptions_with_the_command_messages():
    with pytest.raises(gpukit.InputError) as e:
        gpukit.visa.parse(".version 3.6\n.kernel \"k\"\n    bogus_op (M1, 1) V1\n")
    assert "input.visaasm:3:5: error: unknown instruction `bogus_op`" in str(e.value)
    assert e.value.code == 1
    with pytest.raises(gpukit.InputError) as e:
        gpukit.visa.read(b"CISA\x03")
    assert "input.isa" in str(e.value)
    with pytest.raises(gpukit.UsageError) as e:
        gpukit.command(["visa", "no-such-command"])
    assert "no-such-command" in str(e.value)
    with pytest.raises(gpukit.InputError):
        gpukit.visa.read(REPO / "does-not-exist.isa")


def test_calls_keep_no_state_between_them(tmp_path):
    """The CLI refuses to overwrite its inputs; a later call may write an earlier input."""
    text = tmp_path / "k.visaasm"
    isa = tmp_path / "k.isa"
    shutil.copy(DATA / "visa" / "l02_local_sum__local_sum.visaasm", text)
    gpukit.command(["visa", "asm", text, "-o", isa])
    gpukit.command(["visa", "dis", isa, "-o", text])
    with pytest.raises(gpukit.UsageError, match="is one of the input files"):
        gpukit.command(["visa", "dis", isa, "-o", isa])


def test_intel_program():
    program = gpukit.intel.program(RUN / "store_scalar.deb12.bin")
    assert "store_scalar" in str(program)


def corpus() -> Path:
    """`../shared/corpus`; its absence skips the test, or fails it in CI (REQUIRE_PEERS=1)."""
    if CORPUS.is_dir():
        return CORPUS
    if os.environ.get("REQUIRE_PEERS") == "1" or os.environ.get("CI") == "true":
        pytest.fail("needs ../shared/corpus beside the checkout (required in CI)")
    pytest.skip("needs ../shared/corpus beside the checkout")


def test_iga_read():
    listing = gpukit.iga.read(next((corpus() / "iga").rglob("*.iga1.json")))
    assert listing.instructions
    assert isinstance(listing.stats, dict)


def test_amd_metadata():
    meta = gpukit.amd.metadata(corpus() / "amd" / "alltypes.clo")
    assert meta and all("name" in kernel for kernel in meta)


def test_scan_into_pandas():
    table = gpukit.scan([DATA / "visa"], verify=True)
    df = table.to_pandas()
    assert len(df) == table.num_rows > 0
    assert "local_sum" in set(df["kernel"])


def test_run_with_numpy_equals_visa_run(tmp_path):
    src = np.arange(1024, dtype=np.float32)
    dst = np.zeros(1024, dtype=np.float32)
    kernel = RUN / "tile_transpose.sid.visaasm"
    program = DATA / "intel" / "local_transpose.sid.bin"
    before = dst.copy()
    out_src, out_dst = gpukit.run(
        kernel, program, (32, 32), (16, 16), [src, dst, np.int32(32), np.int32(32)]
    )
    assert (dst == before).all(), "the caller's arrays are not written"
    np.testing.assert_array_equal(out_src, src)
    np.testing.assert_array_equal(out_dst, src.reshape(32, 32).T.reshape(-1))
    cli = gpukit_binary()
    if cli is None:
        pytest.skip("skipped: comparison with the gpukit command (no binary; set GPUKIT_BIN)")
    src.tofile(tmp_path / "in.f32")
    subprocess.run(
        [cli, "visa", "run", kernel, "--binary", program, "--global", "32,32",
         "--local", "16,16", "--arg", f"0=file:{tmp_path / 'in.f32'}", "--arg", "1=zeros:4096",
         "--arg", "2=i32:32", "--arg", "3=i32:32", "--out", f"1={tmp_path / 'out.f32'}"],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    np.testing.assert_array_equal(out_dst, np.fromfile(tmp_path / "out.f32", np.float32))


def test_run_scalars_and_kernel_name():
    (out,) = gpukit.run(
        RUN / "store_scalar.deb12.visaasm",
        RUN / "store_scalar.deb12.bin",
        64,
        32,
        [np.zeros(2, np.uint32), np.uint32(41)],
        kernel="store_scalar",
    )
    assert out[0] == 42


def test_corpus_kernels_scan_read_and_verify():
    df = gpukit.scan(corpus() / "intel", jobs=2).to_pandas()
    assert len(df) > 10
    good = df[(df["format"] == "visa-text") & df["error"].isna()]
    path = good["path"].iloc[0]
    obj = gpukit.visa.read(path)
    assert good["kernel"].iloc[0] in [r.name for r in obj.kernels + obj.functions]
    assert isinstance(gpukit.visa.verify(obj), list)
