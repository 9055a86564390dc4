"""Stand-ins for what lightly 1.5.26 imports and is not installed here (``recipes_lightly.py``), the same in both runs.

- ``lightly.api``: ``lightly/__init__.py`` starts a background check of PyPI's latest version through its API client
  (``lightly.api._version_checking``, which needs ``requests`` and the generated OpenAPI client). The stand-in's check
  does nothing: nothing is asked of the network.
- ``pytest_mock``: lightly's own tests take pytest-mock's ``mocker`` fixture. Ours keeps its contract on
  ``unittest.mock``: ``mocker.patch(target, ...)``, ``mocker.patch.object(obj, name, ...)`` and ``mocker.spy(obj,
  name)`` (a mock that calls through to the function), each undone after the test. Pytest loads it as a plugin
  (``-p pytest_mock``).
- Pillow's ``Image``, ``ImageOps`` and ``ImageFilter``: lightly's transforms hand each view through PIL on the way
  (its ``GaussianBlur`` converts a tensor to a PIL image and back even when it does not blur;
  ``RandomSolarization`` calls ``ImageOps.solarize``). ``Image.Image`` here holds a NumPy array: ``fromarray``,
  ``mode``, ``size``, ``getbands`` and ``__array__`` are what torchvision's ``to_pil_image``/``to_tensor``/
  ``pil_to_tensor`` use, and ``ImageOps.solarize`` inverts the pixels at or above the threshold as Pillow's does.
  Blurring (``ImageFilter.GaussianBlur``) raises: the recipes set lightly's blur probability to 0.
"""

from __future__ import annotations

import contextlib
import sys
import types
from unittest import mock

import numpy as np

_BANDS = {"L": ("L",), "RGB": ("R", "G", "B"), "RGBA": ("R", "G", "B", "A"), "LA": ("L", "A"), "F": ("F",),
          "I": ("I",), "I;16": ("I",)}


class Image:
    """A Pillow image that is its pixel array (height x width [x bands])."""

    def __init__(self, array: np.ndarray, mode: str):
        self._array = array
        self.mode = mode

    @property
    def size(self) -> tuple:
        return (self._array.shape[1], self._array.shape[0])

    @property
    def width(self) -> int:
        return self._array.shape[1]

    @property
    def height(self) -> int:
        return self._array.shape[0]

    def getbands(self) -> tuple:
        return _BANDS[self.mode]

    def __array__(self, dtype=None, copy=None):
        return self._array.astype(dtype) if dtype is not None else self._array.copy()

    def copy(self) -> Image:
        return Image(self._array.copy(), self.mode)

    def convert(self, mode: str) -> Image:
        if mode == self.mode:
            return self.copy()
        if self.mode == "L" and mode == "RGB":
            return Image(np.repeat(self._array[:, :, None], 3, axis=2), mode)
        raise NotImplementedError(f"stand-in Image.convert from {self.mode} to {mode}")

    def filter(self, kernel):
        raise NotImplementedError("the stand-in Pillow does not filter images (the recipes do not blur)")


def fromarray(obj, mode=None) -> Image:
    array = np.asarray(obj)
    if mode is None:
        mode = {2: "L", 3: {1: "L", 3: "RGB", 4: "RGBA"}.get(array.shape[-1], "RGB")}[array.ndim]
    return Image(array.copy(), mode)


def solarize(image: Image, threshold: int = 128) -> Image:
    """Pillow's ``ImageOps.solarize``: every band's value ``v >= threshold`` becomes ``255 - v``; an image whose mode
    is not L or RGB (or anything that is not an image, a tensor) raises Pillow's ``OSError``."""
    if getattr(image, "mode", None) not in ("L", "RGB"):
        raise OSError("not supported for this image mode")
    array = np.asarray(image)
    return Image(np.where(array >= threshold, 255 - array, array).astype(array.dtype), image.mode)


class GaussianBlur:
    def __init__(self, radius=2):
        self.radius = radius


class _Patcher:
    """``mocker.patch``: ``unittest.mock.patch`` whose patches the fixture undoes after the test."""

    def __init__(self, stack: contextlib.ExitStack):
        self._stack = stack

    def __call__(self, target, *args, **kwargs):
        return self._stack.enter_context(mock.patch(target, *args, **kwargs))

    def object(self, target, attribute, *args, **kwargs):
        return self._stack.enter_context(mock.patch.object(target, attribute, *args, **kwargs))


class MockerFixture:
    """pytest-mock's fixture object, the part lightly's tests use."""

    def __init__(self):
        self._stack = contextlib.ExitStack()
        self.patch = _Patcher(self._stack)

    def spy(self, obj, name):
        """A mock that records the calls and returns what ``obj.name`` returns."""
        return self.patch.object(obj, name, side_effect=getattr(obj, name), autospec=True)

    def stopall(self) -> None:
        self._stack.close()


def _pytest_mock() -> types.ModuleType:
    import pytest

    module = types.ModuleType("pytest_mock")
    module.MockerFixture = module.MockFixture = MockerFixture

    @pytest.fixture
    def mocker():
        fixture = MockerFixture()
        yield fixture
        fixture.stopall()

    module.mocker = mocker
    return module


def _pillow() -> None:
    """Give the runner's Pillow stubs for this script (``_real_torchvision`` makes them afresh for each script and puts
    the previous ones back after it) the image class above, ``fromarray``, ``ImageOps.solarize`` and an
    ``ImageFilter`` with ``GaussianBlur``."""
    pil, image, ops = (sys.modules.get(name) for name in ("PIL", "PIL.Image", "PIL.ImageOps"))
    if pil is None or image is None or ops is None:
        return
    image.Image, image.fromarray, ops.solarize = Image, fromarray, solarize
    pil.ImageFilter = types.ModuleType("PIL.ImageFilter")
    pil.ImageFilter.GaussianBlur = GaussianBlur


def modules() -> dict:
    """The stand-in modules by name."""
    api = types.ModuleType("lightly.api")
    api.__path__ = []
    checking = types.ModuleType("lightly.api._version_checking")
    checking.check_is_latest_version_in_background = lambda current_version: None
    api._version_checking = checking
    _pillow()
    return {"lightly.api": api, "lightly.api._version_checking": checking, "pytest_mock": _pytest_mock()}
