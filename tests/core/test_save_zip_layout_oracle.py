"""``core.save`` writes the zip ``torch.save`` writes byte for byte (apart from the random serialization id): the
same local headers without dates or sizes, data descriptors, ``FB`` padding to 64 bytes, a central directory
without extra fields and zip64's end records, so a saved file has the size torch's has (the quantization tutorials
print ``os.path.getsize`` of a saved state dict) and ``torch.load`` reads it."""

from __future__ import annotations

import io
import zipfile

import pytest
import torch

import core

pytestmark = pytest.mark.cpu_only


def _saved(lib, obj_of, folder):
    """The bytes of ``lib.save(obj_of(lib), folder/<lib>/temp.p)``: both libraries save to a file named alike."""
    path = folder / lib.__name__ / "temp.p"
    path.parent.mkdir()
    lib.manual_seed(0)
    lib.save(obj_of(lib), path)
    return path.read_bytes()


def _without_id(raw: bytes) -> bytes:
    """The file with the serialization id's 40 digits and their CRC (in the data descriptor after them and in the
    central directory) blanked."""
    with zipfile.ZipFile(io.BytesIO(raw)) as zf:
        info = next(i for i in zf.infolist() if i.filename.endswith(".data/serialization_id"))
        start = info.header_offset + 30 + len(info.filename) + int.from_bytes(
            raw[info.header_offset + 28:info.header_offset + 30], "little")
        raw = raw[:start] + b"0" * 40 + raw[start + 40:start + 44] + bytes(4) + raw[start + 48:]
        central = raw.rindex(b"PK\x01\x02" + bytes(4) + b"\x08\x08")  # the last entry's central record
        return raw[:central + 16] + bytes(4) + raw[central + 20:]


CASES = {
    "linear_state_dict": lambda lib: lib.nn.Linear(5, 3).state_dict(),
    "lstm_state_dict": lambda lib: lib.nn.LSTM(8, 8).state_dict(),
    "tensor": lambda lib: lib.arange(10.0),
    "nested": lambda lib: {"a": [lib.ones(2, 3), lib.zeros(4, dtype=lib.int64)], "b": 1.5},
    "empty_dict": lambda lib: {},
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_saved_file_is_torchs_byte_for_byte(tmp_path, case):
    ours, theirs = _saved(core, CASES[case], tmp_path), _saved(torch, CASES[case], tmp_path)
    assert len(ours) == len(theirs)
    assert _without_id(ours) == _without_id(theirs)


def test_torch_loads_the_file(tmp_path):
    loaded = torch.load(io.BytesIO(_saved(core, CASES["nested"], tmp_path)))
    assert torch.equal(loaded["a"][0], torch.ones(2, 3)) and loaded["a"][1].dtype == torch.int64


def test_saved_file_to_a_buffer_matches_torchs(tmp_path):
    bufs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        buf = io.BytesIO()
        lib.save(lib.nn.Linear(4, 2).state_dict(), buf)
        bufs.append(buf.getvalue())
    assert _without_id(bufs[0]) == _without_id(bufs[1])
    assert torch.load(io.BytesIO(bufs[0]))["weight"].shape == (2, 4)
