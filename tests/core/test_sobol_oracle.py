"""``core.quasirandom.SobolEngine`` against ``torch.quasirandom.SobolEngine``: the same points, bit for bit."""

from __future__ import annotations

import importlib.util
import tomllib
from functools import partial
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

import core
from tests.core.oracle import raised, to_numpy

ROOT = Path(__file__).resolve().parents[2]


def engines(torch, *args, **kwargs):
    return core.quasirandom.SobolEngine(*args, **kwargs), torch.quasirandom.SobolEngine(*args, **kwargs)


def assert_bits_equal(ours, theirs):
    assert str(ours.dtype).split(".")[-1] == str(theirs.dtype).split(".")[-1]
    assert ours.device.type == "cpu"
    np.testing.assert_array_equal(to_numpy(ours), to_numpy(theirs), strict=True)


@pytest.mark.parametrize("dimension", [1, 2, 7, 40, 1111, 1112])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_draws_equal_torch_bit_for_bit(torch, dimension, dtype):
    ours, theirs = engines(torch, dimension)
    for n in (1, 1, 5, 64, 3):
        assert_bits_equal(ours.draw(n, dtype=getattr(core, dtype)), theirs.draw(n, dtype=getattr(torch, dtype)))
    assert ours.num_generated == theirs.num_generated == 74


def test_direction_numbers_of_all_21201_dimensions_equal_torch(torch):
    ours, theirs = engines(torch, 21201)
    np.testing.assert_array_equal(to_numpy(ours.sobolstate), to_numpy(theirs.sobolstate), strict=True)
    assert_bits_equal(ours.draw(9), theirs.draw(9))


def test_default_dtype_is_read_at_each_draw(torch):
    ours, theirs = engines(torch, 3)
    ours.draw(2), theirs.draw(2)
    previous = core.get_default_dtype(), torch.get_default_dtype()
    core.set_default_dtype(core.float64)
    torch.set_default_dtype(torch.float64)
    try:
        assert_bits_equal(ours.draw(4), theirs.draw(4))
    finally:
        core.set_default_dtype(previous[0])
        torch.set_default_dtype(previous[1])


@pytest.mark.parametrize("seed", [0, 1, 2024])
@pytest.mark.parametrize("dimension", [1, 3, 50])
def test_seeded_scrambled_draws_equal_torch_bit_for_bit(torch, seed, dimension):
    ours, theirs = engines(torch, dimension, scramble=True, seed=seed)
    np.testing.assert_array_equal(to_numpy(ours.shift), to_numpy(theirs.shift), strict=True)
    np.testing.assert_array_equal(to_numpy(ours.sobolstate), to_numpy(theirs.sobolstate), strict=True)
    for n, dtype in ((1, "float64"), (31, "float32"), (40, "float64")):
        assert_bits_equal(ours.draw(n, dtype=getattr(core, dtype)), theirs.draw(n, dtype=getattr(torch, dtype)))


def test_scrambled_first_point_in_float64_is_the_float32_point_as_torch_computes_it(torch):
    ours, theirs = engines(torch, 6, scramble=True, seed=5)
    assert_bits_equal(ours.draw(1, dtype=core.float64), theirs.draw(1, dtype=torch.float64))


def test_unseeded_scramble_draws_from_the_global_generator(torch):
    core.manual_seed(11)
    torch.manual_seed(11)
    ours, theirs = engines(torch, 4, scramble=True)
    assert_bits_equal(ours.draw(16), theirs.draw(16))
    assert_bits_equal(core.rand(3), torch.rand(3))  # both generators moved on by the same amount


@pytest.mark.parametrize("drawn", [0, 1, 6])
@pytest.mark.parametrize("skip", [0, 1, 5, 2**20 + 3])
def test_fast_forward_equals_torch(torch, drawn, skip):
    ours, theirs = engines(torch, 5, scramble=True, seed=3)
    if drawn:
        ours.draw(drawn), theirs.draw(drawn)
    assert ours.fast_forward(skip) is ours
    theirs.fast_forward(skip)
    assert ours.num_generated == theirs.num_generated
    assert_bits_equal(ours.draw(7), theirs.draw(7))


def test_fast_forward_matches_drawing_the_skipped_points(torch):
    skipped, drawn = core.quasirandom.SobolEngine(3), core.quasirandom.SobolEngine(3)
    skipped.draw(3), drawn.draw(3)
    skipped.fast_forward(100)
    drawn.draw(100)
    assert_bits_equal(skipped.draw(4), drawn.draw(4))


def test_reset_starts_the_same_sequence_again(torch):
    ours, theirs = engines(torch, 3, scramble=True, seed=8)
    first = ours.draw(10)
    assert ours.reset() is ours
    assert ours.num_generated == 0
    assert_bits_equal(ours.draw(10), first)
    theirs.draw(10), theirs.reset()
    assert_bits_equal(ours.draw(5), theirs.draw(15)[10:])


def test_draw_base2_and_its_balance_error_equal_torch(torch):
    ours, theirs = engines(torch, 2)
    assert_bits_equal(ours.draw_base2(3), theirs.draw_base2(3))
    assert_bits_equal(ours.draw_base2(3), theirs.draw_base2(3))
    assert raised(lambda: ours.draw_base2(2)) == raised(lambda: theirs.draw_base2(2))


def test_draw_into_out_keeps_out_and_its_dtype(torch):
    ours, theirs = engines(torch, 2)
    out_ours, out_theirs = core.empty(5, dtype=core.float64), torch.empty(5, dtype=torch.float64)
    assert ours.draw(3, out=out_ours, dtype=core.float32) is out_ours
    theirs.draw(3, out=out_theirs, dtype=torch.float32)
    assert_bits_equal(out_ours, out_theirs)


def test_errors_equal_torch(torch):
    for dimension in (0, 21202):
        assert raised(partial(core.quasirandom.SobolEngine, dimension)) == raised(
            partial(torch.quasirandom.SobolEngine, dimension))
    for n in (0, -1):
        ours, theirs = engines(torch, 2)
        assert raised(partial(ours.draw, n)) == raised(partial(theirs.draw, n))
    ours, theirs = engines(torch, 2)
    ours.draw(), theirs.draw()
    for dtype in ("float16", "bfloat16", "int64"):
        assert raised(partial(ours.draw, 2, dtype=getattr(core, dtype))) == raised(
            partial(theirs.draw, 2, dtype=getattr(torch, dtype)))


def test_drawing_zero_points_after_the_first_gives_an_empty_tensor(torch):
    ours, theirs = engines(torch, 3)
    ours.draw(2), theirs.draw(2)
    assert_bits_equal(ours.draw(0), theirs.draw(0))
    assert ours.num_generated == theirs.num_generated


def test_repr_and_state_tensors_equal_torch(torch):
    for kwargs in ({}, {"scramble": True, "seed": 3}, {"scramble": True}):
        ours, theirs = engines(torch, 2, **kwargs)
        assert repr(ours) == repr(theirs)
    ours, theirs = engines(torch, 4)
    for name in ("sobolstate", "shift", "quasi", "_first_point"):
        assert_bits_equal(getattr(ours, name), getattr(theirs, name))


def test_large_draw_is_vectorised():
    points = core.quasirandom.SobolEngine(8).draw(2**18)
    assert points.shape == (2**18, 8)
    counts = np.histogram(to_numpy(points)[:, 5], bins=16, range=(0, 1))[0]
    assert (counts == 2**14).all()  # a Sobol' net: every dyadic interval holds its share exactly


def test_direction_table_ships_as_package_data():
    assert resources.files("core").joinpath("_sobol_directions.npz").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "_sobol_directions.npz" in pyproject["tool"]["setuptools"]["package-data"]["core"]


JOE_KUO_HEAD = """d       s       a       m_i
2       1       0       1
3       2       1       1 3
4       3       1       1 3 1
5       3       2       1 1 1
6       4       1       1 1 3 3
7       4       4       1 3 5 13
8       5       2       1 1 5 5 17
9       5       4       1 1 5 5 5
10      5       7       1 1 7 11 19
"""


def test_table_script_packs_the_published_text_as_the_shipped_file(tmp_path):
    spec = importlib.util.spec_from_file_location("gen_sobol_table", ROOT / "tools" / "gen_sobol_table.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    source = tmp_path / "new-joe-kuo-6.21201"
    source.write_text(JOE_KUO_HEAD)
    packed = script.pack(*script.read_table(source))
    with resources.files("core").joinpath("_sobol_directions.npz").open("rb") as f, np.load(f) as shipped:
        np.testing.assert_array_equal(packed["degree"], shipped["degree"][:10])
        degree = packed["degree"].astype(int)
        width = int(np.sum(np.maximum(degree - 1, 0) * (degree + 2) // 2))  # the first 10 dimensions' bits
        assert 8 * len(packed["bits"]) - 8 < width <= 8 * len(packed["bits"])
        np.testing.assert_array_equal(np.unpackbits(packed["bits"])[:width], np.unpackbits(shipped["bits"])[:width])
