"""``inspect.getsource`` of every class in ``core.nn`` returns its ``class`` statement, as for PyTorch's classes.

A layer class's ``__module__`` is PyTorch's path (``core.nn.modules.batchnorm``), which is not the file that
defines it, and Python's ``inspect`` reads a class's source from its module's ``__file__``; notebooks (``??``),
``inspect.getsource`` in tutorials and tools that read a layer's code rely on it."""

import inspect
import linecache

import pytest

import core


def _classes():
    return sorted(name for name in dir(core.nn) if isinstance(getattr(core.nn, name), type))


def test_there_are_many_classes():
    assert len(_classes()) > 150


@pytest.mark.parametrize("name", _classes())
def test_getsource_returns_the_class_statement(name):
    cls = getattr(core.nn, name)
    linecache.clearcache()  # (as in a fresh process: what an earlier lookup cached must not be what makes this work)
    source = inspect.getsource(cls)
    assert f"class {name}(" in source or f"class {name}:" in source
    assert inspect.getsourcelines(cls)[0][0].lstrip().startswith(("class ", "@"))
    assert inspect.getfile(cls).startswith(inspect.getfile(core)[:-len("__init__.py")])


def test_a_placed_module_from_one_file_names_that_file():
    assert inspect.getfile(core.nn.Flatten) == core.nn.modules.linear.__spec__.origin  # where Flatten is defined
    assert core.nn.Flatten.__module__ == "core.nn.modules.flatten"


def test_a_placed_module_still_reads_its_own_file():
    lines, first = inspect.getsourcelines(core.nn.Linear)
    own = open(core.nn.modules.linear.__spec__.origin).read().splitlines(keepends=True)
    assert own[first - 1:first - 1 + len(lines)] == lines  # Linear is defined in linear.py: same lines, same place


def test_a_placed_module_from_several_files_copies_each_class_from_its_file():
    source = inspect.getsource(core.nn.BatchNorm2d)  # core.nn.modules.batchnorm: normalization.py, volumetric.py...
    defining = open(core.nn.modules.normalization.__spec__.origin).read()
    assert source in defining
    assert "class BatchNorm3d(" in inspect.getsource(core.nn.modules.batchnorm)
