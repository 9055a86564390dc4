"""torch's top-level switches of autocast's state against torch (what torch.utils.checkpoint, accelerate and
custom mixed-precision loops call): ``set_autocast_enabled``/``set_autocast_dtype`` turn casting on and off
outside a ``with autocast`` block, the cache and nesting counters, the deprecated per-device forms with their
warnings; and ``torch.to_dlpack`` at the top level."""

from __future__ import annotations

import warnings

import pytest

import core


def _restoring(lib):
    """Put autocast's CPU state back as it was (the tests change it outside a ``with`` block)."""
    lib.set_autocast_enabled("cpu", False)
    lib.set_autocast_dtype("cpu", lib.bfloat16)
    lib.set_autocast_cache_enabled(True)


@pytest.mark.cpu_only
def test_setting_autocast_on_casts_matmul_until_set_off(torch):
    def run(lib):
        a = lib.ones(2, 3)
        try:
            lib.set_autocast_enabled("cpu", True)
            on = (lib.is_autocast_enabled("cpu"), (a @ a.T).dtype, lib.get_autocast_dtype("cpu"))
            lib.set_autocast_dtype("cpu", lib.float16)
            half = ((a @ a.T).dtype, lib.get_autocast_dtype("cpu"))
        finally:
            _restoring(lib)
        return str(on), str(half), str((a @ a.T).dtype), lib.is_autocast_enabled("cpu")

    assert run(core) == run(torch)


def test_the_cache_and_nesting_counters(torch):
    def run(lib):
        try:
            lib.set_autocast_cache_enabled(False)
            cache = lib.is_autocast_cache_enabled()
            lib.clear_autocast_cache()
            nesting = [lib.autocast_increment_nesting(), lib.autocast_increment_nesting(),
                       lib.autocast_decrement_nesting(), lib.autocast_decrement_nesting()]
        finally:
            _restoring(lib)
        return cache, nesting, lib.is_autocast_cache_enabled()

    assert run(core) == run(torch)


@pytest.mark.parametrize("call", ["set_autocast_cpu_enabled", "set_autocast_cpu_dtype", "set_autocast_gpu_dtype",
                                  "is_autocast_xla_enabled", "is_autocast_ipu_enabled"])
def test_the_deprecated_forms_warn_as_torch_does(torch, call):
    def run(lib):
        args = {"set_autocast_cpu_enabled": (False,), "set_autocast_cpu_dtype": (lib.bfloat16,),
                "set_autocast_gpu_dtype": (lib.float16,)}.get(call, ())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = getattr(lib, call)(*args)
        _restoring(lib)
        message = str(caught[0].message).split(" (Triggered internally")[0]
        return result, caught[0].category, message, str(lib.get_autocast_dtype("cuda"))

    assert run(core) == run(torch)


def test_to_dlpack_at_the_top_level_round_trips(torch):
    def run(lib):
        x = lib.arange(6.0).reshape(2, 3)
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # a writable tensor: no read-only array warning
            back = lib.from_dlpack(lib.to_dlpack(x))
        back[0, 0] = 7.0  # the capsule shares the memory
        return back.tolist(), x.tolist(), lib.to_dlpack is lib.utils.dlpack.to_dlpack

    assert run(core) == run(torch)
