"""``core.utils._pytree`` against ``torch.utils._pytree``: the same trees flattened, rebuilt and mapped in both give
the same leaves, the same printed ``TreeSpec``, the same equality, and torch's errors for trees that do not fit.
"""

from __future__ import annotations

import collections
import warnings

import pytest

import core
from tests.core.oracle import assert_same

Point = collections.namedtuple("Point", "x y")


def _trees(lib):
    """Nested containers of every kind torch's pytree knows, with numbers, None and tensors as leaves."""
    t = lib.arange(3.0)
    return {
        "dict": {"a": [1, (2, 3)], "b": None, "c": collections.OrderedDict(x=1, y=[t])},
        "namedtuple": Point(1, [2, Point(3, 4)]),
        "deque": collections.deque([1, [2, 3]], maxlen=4),
        "defaultdict": collections.defaultdict(list, {"k": 1, "j": (2,)}),
        "leaf": t,
        "none": None,
        "empty": ([], {}, ()),
        "size": lib.Size([2, 3]),
        "return_type": lib.max(lib.tensor([[1.0, 5.0], [4.0, 2.0]]), 0),
    }


def _text(tree):
    """The tree's printed form, with tensors as their values' lists (so core's and torch's compare)."""
    return repr(type(tree).__name__) + repr(_plain(tree))


def _plain(x):
    if hasattr(x, "tolist") and hasattr(x, "dtype"):
        return ("tensor", x.tolist())
    if isinstance(x, dict):
        return type(x).__name__, {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple, collections.deque)):
        return type(x).__name__, [_plain(v) for v in x]
    return x


@pytest.mark.parametrize("name", list(_trees(core)))
def test_tree_flatten_gives_torchs_leaves_and_printed_spec(torch, name):
    ours, theirs = core.utils._pytree, torch.utils._pytree
    leaves, spec = ours.tree_flatten(_trees(core)[name])
    tleaves, tspec = theirs.tree_flatten(_trees(torch)[name])
    assert repr(spec) == repr(tspec) and str(spec) == str(tspec)
    assert (spec.num_leaves, spec.num_nodes, spec.num_children) == (tspec.num_leaves, tspec.num_nodes,
                                                                    tspec.num_children)
    assert spec.is_leaf() == tspec.is_leaf() and spec.context == tspec.context
    assert len(leaves) == len(tleaves)
    for a, b in zip(leaves, tleaves):
        assert_same(a, b) if isinstance(a, core.Tensor) else (a == b)


@pytest.mark.parametrize("name", list(_trees(core)))
def test_tree_unflatten_rebuilds_the_same_containers(torch, name):
    ours, theirs = core.utils._pytree, torch.utils._pytree
    tree, ttree = _trees(core)[name], _trees(torch)[name]
    rebuilt = ours.tree_unflatten(*ours.tree_flatten(tree))
    trebuilt = theirs.tree_unflatten(*theirs.tree_flatten(ttree))
    assert _text(rebuilt) == _text(trebuilt)
    assert type(rebuilt).__name__ == type(trebuilt).__name__
    if isinstance(tree, collections.deque):
        assert rebuilt.maxlen == trebuilt.maxlen
    if isinstance(tree, collections.defaultdict):
        assert rebuilt.default_factory is trebuilt.default_factory


def _map_cases(lib):
    p = lib.utils._pytree
    tree = {"x": 7, "y": (42, 64), "z": None, "t": lib.ones(2)}
    return {
        "map": p.tree_map(lambda x: x is None, tree),
        "map_only": p.tree_map_only(int, lambda x: x + 1, tree),
        "map_only_tensor": p.tree_map_only(lib.Tensor, lambda t: t * 2, tree),
        "map_only_tuple_of_types": p.tree_map_only((int, type(None)), lambda x: 0, tree),
        "map_several": p.tree_map(lambda x, y: [x] + y, [5, 6], [[7, 9], [1, 2]]),
        "map_is_leaf": p.tree_map(str, [(1, 2), [3]], is_leaf=lambda x: isinstance(x, tuple)),
        "leaves": p.tree_leaves(tree),
        "leaves_is_leaf": p.tree_leaves([(1, 2), {"a": (3,)}], is_leaf=lambda x: isinstance(x, tuple)),
        "all": p.tree_all(lambda x: x is not None, tree),
        "any": p.tree_any(lambda x: x is None, tree),
        "all_only": p.tree_all_only(int, lambda x: x > 5, tree),
        "any_only": p.tree_any_only(int, lambda x: x > 50, tree),
        "arg_tree_leaves": p.arg_tree_leaves(1, [2, (3,)], k={"a": 4}),
        "keystr": [p.keystr(path) for path, _ in p.tree_leaves_with_path({"a": [1, Point(2, 3)]})],
        "map_with_path": p.tree_map_with_path(lambda path, x: p.keystr(path) + str(x), {"a": [1, 2]}),
        "is_leaf": [p.tree_is_leaf(None), p.tree_is_leaf([1]), p.tree_is_leaf((1,), lambda x: True)],
        "namedtuple": [p.is_namedtuple(Point), p.is_namedtuple_instance(Point(1, 2)), p.is_namedtuple((1,))],
    }


@pytest.mark.parametrize("name", list(_map_cases(core)))
def test_tree_map_and_queries_give_torchs_results(torch, name):
    assert _text(_map_cases(core)[name]) == _text(_map_cases(torch)[name])


def test_tree_map_inplace_returns_the_tree_after_calling_on_each_leaf(torch):
    def run(lib):
        seen = []
        tree = [1, {"a": 2}]
        out = lib.utils._pytree.tree_map_(seen.append, tree)
        return out is tree, seen

    assert run(core) == run(torch)


def _spec_checks(lib):
    p = lib.utils._pytree
    a, b = p.tree_structure([1, (2, {"k": 3})]), p.tree_structure([4, (5, {"k": 6})])
    other = p.tree_structure([4, (5, {"j": 6})])
    return [a == b, a != other, hash(a) == hash(b), a == p.tree_structure([1, (2, 3)]),
            p.tree_structure(1) == p.treespec_leaf(), repr(p.treespec_tuple([p.treespec_leaf()] * 2)),
            repr(p.treespec_dict(a=p.treespec_leaf())), repr(p.TreeSpec(list, None, [p.treespec_leaf()])),
            a.child(1) == p.tree_structure((0, {"k": 0})), len(a.children()), a.type is list,
            a.flatten_up_to([[9], (8, {"k": 7})])]


def test_treespecs_compare_hash_and_build_as_torchs(torch):
    assert _text(_spec_checks(core)) == _text(_spec_checks(torch))


def test_leafspec_prints_a_star_and_warns_as_deprecated(torch):
    for lib in (core, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            spec = lib.utils._pytree.LeafSpec()
        assert repr(spec) == "*" and spec.is_leaf() and spec == lib.utils._pytree.tree_structure(0)
        assert [w.category for w in caught] == [FutureWarning]
        assert "is deprecated" in str(caught[0].message)


class Box:
    def __init__(self, a, b):
        self.a, self.b = a, b


def _register(lib):
    p = lib.utils._pytree
    if Box in p.SUPPORTED_NODES:
        p._deregister_pytree_node(Box)
    p.register_pytree_node(Box, lambda box: ([box.a, box.b], "box"), lambda values, ctx: Box(*values),
                           flatten_with_keys_fn=lambda box: ([(p.GetAttrKey("a"), box.a),
                                                              (p.GetAttrKey("b"), box.b)], "box"))
    try:
        leaves, spec = p.tree_flatten([Box(1, (2, 3))])
        doubled = p.tree_map(lambda x: x * 2, Box(1, [2]))
        paths = [p.keystr(path) for path, _ in p.tree_leaves_with_path(Box(1, [2]))]
        return [leaves, repr(spec), doubled.a, doubled.b, paths]
    finally:
        p._deregister_pytree_node(Box)


def test_register_pytree_node_makes_a_class_a_node(torch):
    assert _register(core) == _register(torch)


def _register_twice(lib):
    p = lib.utils._pytree
    with pytest.raises(ValueError, match="is already registered as pytree node"):
        p.register_pytree_node(list, lambda x: (x, None), lambda v, c: list(v))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        p._register_pytree_node(Box, lambda box: ([box.a], None), lambda v, c: Box(v[0], None))
        p._register_pytree_node(Box, lambda box: ([box.a], None), lambda v, c: Box(v[0], None))
    p._deregister_pytree_node(Box)
    return [(w.category.__name__, str(w.message)) for w in caught]


def test_registering_a_registered_type_raises_valueerror_and_the_old_name_warns(torch):
    assert _register_twice(core) == _register_twice(torch)


def _errors(lib):
    p = lib.utils._pytree
    cases = [
        lambda: p.tree_unflatten([1, 2], p.tree_structure([1])),
        lambda: p.tree_map(lambda x, y: x + y, [1, 2], [3]),
        lambda: p.tree_map(lambda x, y: x + y, [1, 2], (3, 4)),
        lambda: p.tree_map(lambda x, y: x + y, {"a": 1}, {"b": 1}),
        lambda: p.tree_map(lambda x, y: x, Point(1, 2), collections.namedtuple("Q", "x y")(1, 2)),
        lambda: p.tree_unflatten([1], [1]),
        lambda: p.tree_map_only(3, lambda x: x, [1]),
    ]
    out = []
    for case in cases:
        try:
            case()
            out.append(None)
        except Exception as e:
            out.append((type(e).__name__, str(e).split(" (")[0].split("; expected <class")[0]))
    return out


def test_trees_that_do_not_fit_raise_torchs_errors(torch):
    assert _errors(core) == _errors(torch)


def test_tree_map_over_dicts_accepts_any_standard_dict_kind(torch):
    def run(lib):
        p = lib.utils._pytree
        return p.tree_map(lambda x, y: x + y, {"a": 1, "b": 2}, collections.OrderedDict(b=10, a=20))

    assert run(core) == run(torch)


def test_broadcast_to_and_flatten_repeats_a_prefix_as_vmaps_in_dims(torch):
    def run(lib):
        p = lib.utils._pytree
        spec = p.tree_structure(([1, 2], {"a": 3}))
        return [p._broadcast_to_and_flatten(0, spec), p._broadcast_to_and_flatten((0, {"a": 1}), spec),
                p._broadcast_to_and_flatten((0, 1, 2), spec)]

    assert run(core) == run(torch)


def _dataclass_tree(lib):
    import dataclasses

    @dataclasses.dataclass
    class Pair:
        a: object
        b: object = None
        tag: str = "x"

    p = lib.utils._pytree
    p.register_dataclass(Pair, field_names=["a", "b"], drop_field_names=["tag"])
    try:
        leaves, spec = p.tree_flatten([Pair(1, (2, 3)), Pair(4)])
        rebuilt = p.tree_unflatten([x * 10 for x in leaves], spec)
        paths = [p.keystr(path) for path, _ in p.tree_leaves_with_path(Pair(1, [2]))]
        errors = [_error(lambda: p.register_dataclass(Pair, field_names=["a"], drop_field_names=["tag"])),
                  _error(lambda: p.register_dataclass(Box))]
        return [leaves, repr(spec).replace(Pair.__qualname__, "Pair"), [(r.a, r.b, r.tag) for r in rebuilt], paths,
                errors]
    finally:
        p._deregister_pytree_node(Pair)


def _error(fn):
    try:
        fn()
    except Exception as e:
        return type(e).__name__, str(e).replace("core.", "torch.").split(" object at ")[0]
    return None


def test_register_dataclass_makes_fields_children_as_torch(torch):
    assert _dataclass_tree(core) == _dataclass_tree(torch)
