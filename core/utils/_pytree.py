"""``torch.utils._pytree``: nested containers flattened to a list of leaves and a ``TreeSpec`` that rebuilds them.

What it promises, as torch 2.13's Python pytree: tuples, lists, dicts, OrderedDicts, defaultdicts, deques,
namedtuples, ``Size`` and core's ``torch.return_types`` results are nodes; everything else (``None``, numbers,
tensors) is a leaf. A ``TreeSpec`` holds a node's type, its context (dict keys, a namedtuple's class, a deque's
``maxlen``...) and its children's specs; its ``repr`` is torch's (``TreeSpec(dict, ['a'], [*])``), equal specs
compare equal and hash alike. ``register_pytree_node`` adds container types; ``tree_map`` over several trees
checks them against the first one's structure with torch's ``ValueError`` messages.
"""

import dataclasses
import functools
import threading
import types
import warnings
from collections import OrderedDict, defaultdict, deque, namedtuple
from typing import Any, NamedTuple

__all__ = ["PyTree", "Context", "FlattenFunc", "UnflattenFunc", "TreeSpec", "LeafSpec", "SequenceKey", "MappingKey",
           "GetAttrKey", "register_pytree_node", "register_dataclass", "tree_flatten", "tree_unflatten", "tree_iter",
           "tree_leaves",
           "tree_structure", "tree_map", "tree_map_", "tree_map_only", "tree_map_only_", "map_only", "tree_all",
           "tree_any", "tree_all_only", "tree_any_only", "tree_is_leaf", "treespec_leaf", "treespec_tuple",
           "treespec_dict", "treespec_pprint", "tree_flatten_with_path", "tree_leaves_with_path", "tree_map_with_path",
           "keystr",
           "key_get", "arg_tree_leaves", "is_namedtuple", "is_namedtuple_class", "is_namedtuple_instance",
           "SUPPORTED_NODES", "BUILTIN_TYPES", "STANDARD_DICT_TYPES"]

PyTree = Any
Context = Any
FlattenFunc = Any
UnflattenFunc = Any


class NodeDef(NamedTuple):
    type: Any
    flatten_fn: Any
    unflatten_fn: Any
    flatten_with_keys_fn: Any


_NODE_REGISTRY_LOCK = threading.Lock()
SUPPORTED_NODES: dict[Any, NodeDef] = {}


def _private_register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None,
                                  to_dumpable_context=None, from_dumpable_context=None, flatten_with_keys_fn=None):
    """Registers ``cls`` (overwriting an earlier registration with torch's warning)."""
    with _NODE_REGISTRY_LOCK:
        if cls in SUPPORTED_NODES:
            warnings.warn(f"{cls} is already registered as pytree node. Overwriting the previous registration.",
                          stacklevel=3)
        if (to_dumpable_context is None) ^ (from_dumpable_context is None):
            raise ValueError(f"Both to_dumpable_context and from_dumpable_context for {cls} must "
                             "be None or registered.")
        SUPPORTED_NODES[cls] = NodeDef(cls, flatten_fn, unflatten_fn, flatten_with_keys_fn)


def register_pytree_node(cls, flatten_fn, unflatten_fn, *, serialized_type_name=None, to_dumpable_context=None,
                         from_dumpable_context=None, flatten_with_keys_fn=None) -> None:
    """Registers a container type: ``flatten_fn(obj) -> (children, context)``, ``unflatten_fn(children, context)``."""
    if cls in SUPPORTED_NODES:
        raise ValueError(f"{cls} is already registered as pytree node.")
    _private_register_pytree_node(cls, flatten_fn, unflatten_fn, serialized_type_name=serialized_type_name,
                                  to_dumpable_context=to_dumpable_context,
                                  from_dumpable_context=from_dumpable_context,
                                  flatten_with_keys_fn=flatten_with_keys_fn)


def _register_pytree_node(cls, flatten_fn, unflatten_fn, to_str_fn=None, maybe_from_str_fn=None, *,
                          serialized_type_name=None, to_dumpable_context=None, from_dumpable_context=None,
                          flatten_with_keys_fn=None) -> None:
    """The older name (libraries of torch 2.0/2.1 call it): deprecated; registers, overwriting with a warning."""
    warnings.warn("`torch.utils._pytree._register_pytree_node` is deprecated. "
                  "Please use `torch.utils._pytree.register_pytree_node` instead.", FutureWarning, stacklevel=2)
    if to_str_fn is not None or maybe_from_str_fn is not None:
        warnings.warn("`to_str_fn` and `maybe_from_str_fn` is deprecated. "
                      "Please use `to_dumpable_context` and `from_dumpable_context` instead.",
                      FutureWarning, stacklevel=2)
    _private_register_pytree_node(cls, flatten_fn, unflatten_fn, serialized_type_name=serialized_type_name,
                                  to_dumpable_context=to_dumpable_context,
                                  from_dumpable_context=from_dumpable_context,
                                  flatten_with_keys_fn=flatten_with_keys_fn)


def register_dataclass(cls, *, field_names=None, drop_field_names=None, serialized_type_name=None) -> None:
    """Registers a dataclass (or a class built from keyword fields): its non-None fields are the children."""
    drop = set(drop_field_names or [])
    if not dataclasses.is_dataclass(cls):
        if field_names is None:
            raise ValueError("field_names must be specified with a list of all fields used to "
                             f"initialize {cls}, as it is not a dataclass.")
    else:
        init_fields = [f.name for f in dataclasses.fields(cls) if f.init]
        if field_names is None:
            field_names = init_fields
        elif set(init_fields) - drop != set(field_names):
            message = "field_names does not include all dataclass fields.\n"
            if set(init_fields) - drop - set(field_names):
                message += (f"Missing fields in `field_names`: {set(init_fields) - drop - set(field_names)}. If you "
                            "want to include these fields in the pytree, please add them to `field_names`, otherwise "
                            "please add them to `drop_field_names`.\n")
            if set(field_names) - (set(init_fields) - drop):
                message += (f"Unexpected fields in `field_names`: {set(field_names) - (set(init_fields) - drop)}. "
                            "Please remove these fields, or add them to `drop_field_names`.\n")
            raise ValueError(message)
    names = list(field_names)

    def flatten(obj):
        present = [name for name in names if getattr(obj, name) is not None]
        return [getattr(obj, name) for name in present], [present, [n for n in names if n not in present]]

    def unflatten(values, context):
        present, absent = context
        return cls(**dict(zip(present, values)), **dict.fromkeys(absent))

    def flatten_with_keys(obj):
        values, (present, _) = flatten(obj)
        return [(GetAttrKey(name), value) for name, value in zip(present, values)], present

    _private_register_pytree_node(cls, flatten, unflatten, serialized_type_name=serialized_type_name,
                                  flatten_with_keys_fn=flatten_with_keys)


def _deregister_pytree_node(cls) -> None:
    with _NODE_REGISTRY_LOCK:
        del SUPPORTED_NODES[cls]


# ---- key paths -------------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class SequenceKey:
    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"

    def get(self, sequence):
        return sequence[self.idx]


@dataclasses.dataclass(frozen=True)
class MappingKey:
    key: Any

    def __str__(self) -> str:
        return f"[{self.key!r}]"

    def get(self, mapping):
        return mapping[self.key]


@dataclasses.dataclass(frozen=True)
class GetAttrKey:
    name: str

    def __str__(self) -> str:
        return f".{self.name}"

    def get(self, obj):
        return getattr(obj, self.name)


def keystr(kp) -> str:
    """A key path as text: ``['a'][1]``."""
    return "".join(str(k) for k in kp)


def key_get(obj, kp):
    """The value at key path ``kp`` inside ``obj``."""
    for k in kp:
        obj = k.get(obj)
    return obj


# ---- the built-in nodes ----------------------------------------------------------------------------------------

def is_namedtuple_class(cls) -> bool:
    """True for classes made by ``namedtuple``/``typing.NamedTuple`` (a tuple with ``_fields``, ``_make``...)."""
    return (isinstance(cls, type) and issubclass(cls, tuple)
            and isinstance(getattr(cls, "_fields", None), tuple)
            and all(type(field) is str for field in cls._fields)
            and callable(getattr(cls, "_make", None)) and callable(getattr(cls, "_asdict", None)))


def is_namedtuple(obj) -> bool:
    return is_namedtuple_class(obj if isinstance(obj, type) else type(obj))


def is_namedtuple_instance(obj) -> bool:
    return is_namedtuple_class(type(obj))


def _sequence_keys(values, context):
    return [(SequenceKey(i), v) for i, v in enumerate(values)], context


def _mapping_keys(values, context, keys):
    return [(MappingKey(k), v) for k, v in zip(keys, values)], context


def _dict_flatten(d):
    return list(d.values()), list(d.keys())


def _defaultdict_flatten(d):
    values, keys = _dict_flatten(d)
    return values, [d.default_factory, keys]


def _namedtuple_flatten_with_keys(d):
    return [(GetAttrKey(field), v) for field, v in zip(type(d)._fields, d)], type(d)


def _return_type_flatten_with_keys(d):
    return [(SequenceKey(i), v) for i, v in enumerate(d)], None


_BUILTINS = (
    (tuple, lambda d: (list(d), None), lambda values, context: tuple(values),
     lambda d: _sequence_keys(list(d), None)),
    (list, lambda d: (d, None), lambda values, context: list(values), lambda d: _sequence_keys(d, None)),
    (dict, _dict_flatten, lambda values, keys: dict(zip(keys, values)),
     lambda d: _mapping_keys(list(d.values()), list(d.keys()), d.keys())),
    (namedtuple, lambda d: (list(d), type(d)), lambda values, cls: cls(*values), _namedtuple_flatten_with_keys),
    (OrderedDict, _dict_flatten, lambda values, keys: OrderedDict(zip(keys, values)),
     lambda d: _mapping_keys(list(d.values()), list(d.keys()), d.keys())),
    (defaultdict, _defaultdict_flatten, lambda values, ctx: defaultdict(ctx[0], zip(ctx[1], values)),
     lambda d: _mapping_keys(list(d.values()), [d.default_factory, list(d.keys())], d.keys())),
    (deque, lambda d: (list(d), d.maxlen), lambda values, maxlen: deque(values, maxlen=maxlen),
     lambda d: _sequence_keys(list(d), d.maxlen)),
)
for _cls, _flatten, _unflatten, _with_keys in _BUILTINS:
    _private_register_pytree_node(_cls, _flatten, _unflatten, flatten_with_keys_fn=_with_keys)
BUILTIN_TYPES = frozenset(cls for cls, *_ in _BUILTINS)
STANDARD_DICT_TYPES = frozenset({dict, OrderedDict, defaultdict})


def _register_size() -> None:
    """``torch.Size`` is a node of its own type, as in torch (which rebuilds it as a plain tuple)."""
    from core import Size

    _private_register_pytree_node(Size, lambda d: (list(d), None), lambda values, context: tuple(values),
                                  flatten_with_keys_fn=_return_type_flatten_with_keys)


def _get_node_type(tree):
    """The registry key of ``tree``: its type, or ``namedtuple`` for every namedtuple class (as torch)."""
    node_type = type(tree)
    if node_type.__module__ == "torch.return_types" and issubclass(node_type, tuple):
        return _return_type_node(node_type)
    if is_namedtuple_class(node_type):
        return namedtuple
    return node_type


def _return_type_node(cls):
    """Registers one of core's ``torch.return_types`` classes on first sight, as torch registers its structseqs."""
    if cls not in SUPPORTED_NODES:
        with _NODE_REGISTRY_LOCK:
            SUPPORTED_NODES[cls] = NodeDef(cls, lambda d: (list(d), None), lambda values, context: cls(*values),
                                           _return_type_flatten_with_keys)
    return cls


def tree_is_leaf(tree, is_leaf=None) -> bool:
    """True when ``tree`` is not a registered container (or ``is_leaf`` says so)."""
    if is_leaf is not None and is_leaf(tree):
        return True
    return _get_node_type(tree) not in SUPPORTED_NODES


from core.utils._treespec import _LEAF_SPEC, LeafSpec, TreeSpec  # noqa: E402  (the spec needs the registry)


def treespec_leaf() -> TreeSpec:
    return _LEAF_SPEC


def treespec_tuple(iterable=(), /) -> TreeSpec:
    children = list(iterable)
    if any(not isinstance(child, TreeSpec) for child in children):
        raise ValueError(f"Expected a tuple of TreeSpec values, got: {children!r}.")
    return TreeSpec(tuple, None, children)


def treespec_dict(mapping=(), /, **kwargs) -> TreeSpec:
    dct = dict(mapping, **kwargs)
    if any(not isinstance(child, TreeSpec) for child in dct.values()):
        raise ValueError(f"Expected a dictionary of TreeSpec values, got: {dct!r}.")
    return TreeSpec(dict, list(dct.keys()), list(dct.values()))


# ---- flatten, unflatten, map -----------------------------------------------------------------------------------

def tree_flatten(tree, is_leaf=None):
    """``(leaves, treespec)``: the leaves in order and the structure that rebuilds ``tree`` from them."""
    leaves: list = []

    def walk(node):
        if tree_is_leaf(node, is_leaf):
            leaves.append(node)
            return _LEAF_SPEC
        node_type = _get_node_type(node)
        children, context = SUPPORTED_NODES[node_type].flatten_fn(node)
        return TreeSpec(node_type, context, [walk(child) for child in children])

    return leaves, walk(tree)


def tree_unflatten(leaves, treespec):
    """The tree of ``treespec`` with ``leaves`` in its places (the inverse of ``tree_flatten``)."""
    if not isinstance(treespec, TreeSpec):
        if not isinstance(leaves, TreeSpec):
            raise TypeError(f"Expected `treespec` to be an instance of PyTreeSpec but got item of type "
                            f"{type(treespec)}.")
        leaves, treespec = treespec, leaves
    return treespec.unflatten(leaves)


class _Asterisk(str):
    """A leaf that prints as ``*`` (``repr`` too): ``treespec_pprint``'s placeholder."""

    def __new__(cls):
        return super().__new__(cls, "*")

    def __repr__(self) -> str:
        return "*"


_asterisk = _Asterisk()


def treespec_pprint(treespec: TreeSpec) -> str:
    """The tree of ``treespec`` with ``*`` for each leaf, as Python prints it (``(*, {'a': *})``): how torch.func's
    errors show a structure."""
    return repr(tree_unflatten([_asterisk] * treespec.num_leaves, treespec))


def tree_iter(tree, is_leaf=None):
    """The leaves of ``tree``, one at a time."""
    if tree_is_leaf(tree, is_leaf):
        yield tree
        return
    children, _ = SUPPORTED_NODES[_get_node_type(tree)].flatten_fn(tree)
    for child in children:
        yield from tree_iter(child, is_leaf)


def tree_leaves(tree, is_leaf=None) -> list:
    return list(tree_iter(tree, is_leaf))


def tree_structure(tree, is_leaf=None) -> TreeSpec:
    return tree_flatten(tree, is_leaf)[1]


def arg_tree_leaves(*args, **kwargs) -> list:
    """The leaves of all ``args`` and then of all ``kwargs``' values."""
    leaves: list = []
    for a in (*args, *kwargs.values()):
        leaves.extend(tree_iter(a))
    return leaves


def tree_map(func, tree, *rests, is_leaf=None):
    """A tree of ``tree``'s structure holding ``func(leaf, *matching leaves of rests)``."""
    leaves, treespec = tree_flatten(tree, is_leaf)
    flat_args = [leaves] + [treespec.flatten_up_to(r) for r in rests]
    return treespec.unflatten(map(func, *flat_args))


def tree_map_(func, tree, *rests, is_leaf=None):
    """``tree_map`` for a function called for its effect: returns ``tree`` itself."""
    leaves, treespec = tree_flatten(tree, is_leaf)
    flat_args = [leaves] + [treespec.flatten_up_to(r) for r in rests]
    for args in zip(*flat_args):
        func(*args)
    return tree


def map_only(type_or_types_or_pred, /):
    """A decorator: the function applies to leaves of the given type(s) (or passing the predicate), others pass."""
    if isinstance(type_or_types_or_pred, (type, tuple, types.UnionType)):
        def pred(x):
            return isinstance(x, type_or_types_or_pred)
    elif callable(type_or_types_or_pred):
        pred = type_or_types_or_pred
    else:
        raise TypeError("Argument must be a type, a tuple of types, or a callable.")

    def wrapper(func):
        @functools.wraps(func)
        def wrapped(x):
            return func(x) if pred(x) else x
        return wrapped

    return wrapper


def tree_map_only(type_or_types_or_pred, /, func, tree, is_leaf=None):
    return tree_map(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_map_only_(type_or_types_or_pred, /, func, tree, is_leaf=None):
    return tree_map_(map_only(type_or_types_or_pred)(func), tree, is_leaf=is_leaf)


def tree_all(pred, tree, is_leaf=None) -> bool:
    return all(map(pred, tree_iter(tree, is_leaf)))


def tree_any(pred, tree, is_leaf=None) -> bool:
    return any(map(pred, tree_iter(tree, is_leaf)))


def tree_all_only(type_or_types, /, pred, tree, is_leaf=None) -> bool:
    return all(pred(x) for x in tree_iter(tree, is_leaf) if isinstance(x, type_or_types))


def tree_any_only(type_or_types, /, pred, tree, is_leaf=None) -> bool:
    return any(pred(x) for x in tree_iter(tree, is_leaf) if isinstance(x, type_or_types))


# ---- key paths over trees --------------------------------------------------------------------------------------

def _key_paths(path, tree, is_leaf):
    if is_leaf and is_leaf(tree):
        yield path, tree
        return
    node_type = _get_node_type(tree)
    handler = SUPPORTED_NODES.get(node_type)
    if handler is None:
        yield path, tree
        return
    if handler.flatten_with_keys_fn is None:
        raise ValueError(f"Did not find a flatten_with_keys_fn for type: {node_type}. "
                         "Please pass a flatten_with_keys_fn argument to register_pytree_node.")
    key_children, _ = handler.flatten_with_keys_fn(tree)
    for key, child in key_children:
        yield from _key_paths((*path, key), child, is_leaf)


def tree_flatten_with_path(tree, is_leaf=None):
    """``([(key_path, leaf)...], treespec)``."""
    return list(_key_paths((), tree, is_leaf)), tree_structure(tree, is_leaf)


def tree_leaves_with_path(tree, is_leaf=None) -> list:
    return list(_key_paths((), tree, is_leaf))


def tree_map_with_path(func, tree, *rests, is_leaf=None):
    """``tree_map`` whose function gets each leaf's key path first."""
    path_leaves, treespec = tree_flatten_with_path(tree, is_leaf)
    paths = [p for p, _ in path_leaves]
    leaves = [v for _, v in path_leaves]
    flat_args = [paths, leaves] + [treespec.flatten_up_to(r) for r in rests]
    return treespec.unflatten(map(func, *flat_args))


def _broadcast_to_and_flatten(tree, treespec, is_leaf=None):
    """``tree`` (a prefix of ``treespec``'s structure) repeated out to its leaves, or None where it is not one."""
    full_tree = treespec.unflatten([0] * treespec.num_leaves)
    result: list = []
    try:
        tree_map_(lambda x, sub: result.extend([x] * tree_structure(sub, is_leaf).num_leaves), tree, full_tree,
                  is_leaf=is_leaf)
    except ValueError:
        return None
    return result


_register_size()
