"""What piq's tests (``recipes_piq.py``) import and is not installed here (our text).

- ``skimage``: ``skimage.io.imread`` reads the tests' four images (``tests/assets``: two 24-bit Windows bitmaps and
  two GIF87a files with a grey palette) as scikit-image does, an ``(H, W, 3)`` or ``(H, W)`` ``uint8`` array: the
  bitmap's rows bottom-up in BGR order, the GIF's LZW codes through its palette (a grey palette gives the grey
  levels). ``skimage.metrics.peak_signal_noise_ratio`` is scikit-image's formula in float64
  (``10 * log10(data_range ** 2 / mse)``), which ``tests/test_psnr.py`` compares piq's with.
- ``tensorflow``: the SSIM and MS-SSIM tests compare with ``tf.image.ssim``; the recipes deselect those tests, and
  the stand-in raises if anything of it is used.
"""

from __future__ import annotations

import struct
import types

import numpy as np
from fake_stand_ins import module as _module


def _read_bmp(data: bytes) -> np.ndarray:
    """An uncompressed 24-bit Windows bitmap as ``(H, W, 3)`` RGB."""
    offset = struct.unpack_from("<I", data, 10)[0]
    width, height = struct.unpack_from("<ii", data, 18)
    bits, compression = struct.unpack_from("<HI", data, 28)
    if bits != 24 or compression != 0:
        raise NotImplementedError(f"stand-in imread reads 24-bit uncompressed bitmaps, not {bits}-bit ({compression})")
    stride = (width * 3 + 3) // 4 * 4
    rows = np.frombuffer(data, np.uint8, stride * abs(height), offset).reshape(abs(height), stride)
    image = rows[:, :width * 3].reshape(abs(height), width, 3)[:, :, ::-1]
    return np.ascontiguousarray(image[::-1] if height > 0 else image)


def _lzw(codes: bytes, min_size: int, count: int) -> np.ndarray:
    """GIF's variable-width LZW: ``count`` palette indices."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    table: list[bytes] = []
    size, previous, buffer, held, pos = min_size + 1, None, 0, 0, 0
    while True:
        while held < size and pos < len(codes):  # (bits come least significant first)
            buffer |= codes[pos] << held
            held, pos = held + 8, pos + 1
        if held < size:
            break
        code = buffer & ((1 << size) - 1)
        buffer, held = buffer >> size, held - size
        if code == clear:
            table = [bytes([i]) for i in range(clear)] + [b"", b""]
            size, previous = min_size + 1, None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if previous is not None:
                table.append(previous + entry[:1])
        else:  # the code being defined: the previous string and its own first byte
            entry = previous + previous[:1]
            table.append(entry)
        out += entry
        previous = entry
        if len(table) == (1 << size) and size < 12:
            size += 1
    return np.frombuffer(bytes(out[:count]), np.uint8)


def _read_gif(data: bytes) -> np.ndarray:
    """A GIF's first image (interlaced or not) through its (global or local) palette: ``(H, W)`` for a grey palette."""
    flags = data[10]
    pos, palette = 13, None
    if flags & 0x80:
        n = 3 << ((flags & 7) + 1)
        palette, pos = np.frombuffer(data, np.uint8, n, pos).reshape(-1, 3), pos + n
    while data[pos] == 0x21:  # extension blocks
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    if data[pos] != 0x2C:
        raise NotImplementedError("stand-in imread found no image descriptor")
    width, height, local = *struct.unpack_from("<HH", data, pos + 5), data[pos + 9]
    pos += 10
    if local & 0x80:
        n = 3 << ((local & 7) + 1)
        palette, pos = np.frombuffer(data, np.uint8, n, pos).reshape(-1, 3), pos + n
    min_size, pos = data[pos], pos + 1
    blocks = bytearray()
    while data[pos]:
        blocks += data[pos + 1:pos + 1 + data[pos]]
        pos += data[pos] + 1
    indices = _lzw(bytes(blocks), min_size, width * height).reshape(height, width)
    if local & 0x40:  # interlaced: rows 0, 8, 16..., then 4, 12..., then 2, 6..., then the odd ones
        order = np.concatenate([np.arange(start, height, step) for start, step in ((0, 8), (4, 8), (2, 4), (1, 2))])
        indices = indices[np.argsort(order)]
    rgb = palette[indices]
    grey = (rgb[..., 0] == rgb[..., 1]).all() and (rgb[..., 1] == rgb[..., 2]).all()
    return np.ascontiguousarray(rgb[..., 0]) if grey else rgb


def imread(fname, *args, **kwargs) -> np.ndarray:
    """``skimage.io.imread`` of a 24-bit bitmap or a GIF."""
    with open(fname, "rb") as f:
        data = f.read()
    if data[:2] == b"BM":
        return _read_bmp(data)
    if data[:4] == b"GIF8":
        return _read_gif(data)
    raise NotImplementedError(f"stand-in imread reads bitmaps and GIFs, not {fname}")


def peak_signal_noise_ratio(image_true, image_test, *, data_range=None) -> float:
    """scikit-image's PSNR: float64 images, ``10 * log10(data_range ** 2 / mse)``."""
    true, test = np.asarray(image_true, np.float64), np.asarray(image_test, np.float64)
    err = np.mean((true - test) ** 2, dtype=np.float64)
    return 10 * np.log10((data_range ** 2) / err)


class _Unused(types.ModuleType):
    """A module whose every attribute raises: what the recipes deselect uses it."""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise RuntimeError(f"{self.__name__}.{name} is not available in the corpus (a stand-in module)")


def modules() -> dict:
    """The stand-ins, by module name, for ``runner._fetched_packages``."""
    io = _module("skimage.io", imread=imread)
    metrics = _module("skimage.metrics", peak_signal_noise_ratio=peak_signal_noise_ratio)
    skimage = _module("skimage", io=io, metrics=metrics)
    return {"skimage": skimage, "skimage.io": io, "skimage.metrics": metrics,
            "tensorflow": _module("tensorflow", cls=_Unused)}
