"""Fuzzing the loader: thousands of mutated files each load or give one LoadError; no crash, no hang.

Mutations of a rich file (subgraph, npy tensor, placeholder, comments, training) and of every example the app
ships: byte flips, truncation, inserted garbage, and structural edits on the parsed data (deleted and duplicated
keys and list items, values swapped for other types, huge numbers, deep nesting, settings that used to load and
then fail: LBFGS, ReduceLROnPlateau, a step size of 0, a device named gpu, a lone surrogate). Whatever loads must
also save, round-trip, validate and infer, and run forward and a training step with errors kept on the nodes
or in the step's metrics, never raised; a refusal is one short LoadError.
"""

import copy
import json
import random

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - built-in node types in the fuzzed file
from core.nodegraph.files import io as files
from core.nodegraph.files.io import LoadError
from core.nodegraph.lessons import texts as lessons
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.inference import infer
from core.nodegraph.model.validation import validate
from core.nodegraph.run.session import Session
from tests.nodegraph.graph_helpers import build, linear_graph, tensor_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("tensor_types")

N_MUTANTS = 3000
WEIRD = [None, True, 0, -1, 1.5, 10 ** 30, -(10 ** 30), 1e308, "", "n1", "x" * 300, [], {}, [[[]]], {"a": {}},
         ["n1", "out"], [1, 2, 3], {"npy_base64": "AAAA"}, {"npy_base64": 5}, "tt.add", "tt.view", "graph.subgraph",
         "tt.mixed", "out", "a", float("nan"), "expr.expression", "layer.mlp", "(x * w).sum() + b", "__class__"]


def _rich_file() -> str:
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"], "Linear")
    c.do(g)
    big = build([("n1", "tt.tensor", {"tensor": [[float(i)] * 10 for i in range(10)]})]).nodes["n1"].to_dict()
    big["id"] = "n9"
    cmd.AddNode(big).do(g)
    cmd.AddComment({"text": "block", "nodes": ["n1", c.node_id]}).do(g)
    cmd.AddNode({"id": "n11", "type": "expr.expression", "params": {"formula": "(x * w).sum() + b"}}).do(g)
    cmd.AddNode({"id": "n12", "type": "source.randn", "params": {"shape": [2], "seed": 1}}).do(g)
    cmd.AddNode({"id": "n13", "type": "layer.mlp", "params": {}}).do(g)
    cmd.Connect("n12", "out", "n11", "x").do(g)
    cmd.Connect("n12", "out", "n11", "w").do(g)
    cmd.SetTraining("loss", "n6").do(g)
    data = files.to_file_dict(g)
    data["nodes"].append({"id": "n10", "type": "future.widget", "params": {"k": [1, {"z": None}]},
                          "position": [0, 0], "ports": ["in"]})
    data["edges"].append({"from": ["n6", "out"], "to": ["n10", "in"]})
    return json.dumps(data, indent=1)


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, prefix + (i,))


# values that loaded and then failed in training, in a save or in the Train dock (issue 21's late checks)
LATE = WEIRD + ["LBFGS", "Adamax", {"type": "ReduceLROnPlateau"}, {"type": "StepLR", "step_size": 0},
                {"type": "StepLR", "step_size": 1.5}, "gpu", "cuda:0", "x\ud800", 2 ** 40, 2 ** 64 - 1, -1e-9,
                {"lr": "abc"}, {"lr": 0.1, "betas": [2.0, 0.9]}, [float("inf"), float("nan")]]


def _structural(data, rng: random.Random, weird=WEIRD) -> str:
    data = copy.deepcopy(data)
    path = rng.choice(list(_paths(data))[1:])
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    op = rng.randrange(5)
    if op == 0:  # delete
        del parent[key]
    elif op == 1:  # duplicate: a list item twice, or a key's value under another key
        if isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        else:
            parent[rng.choice(list(parent))] = copy.deepcopy(parent[key])
    elif op == 2:  # type swap
        parent[key] = copy.deepcopy(rng.choice(weird))
    elif op == 3:  # huge numbers
        parent[key] = rng.choice([10 ** rng.randrange(5, 400), -(10 ** 20), 2 ** 63, 1e300 * 10])
    else:  # deep nesting
        value = parent[key]
        for _ in range(rng.randrange(1, 200)):
            value = [value]
        parent[key] = value
    return json.dumps(data)


def _textual(text: str, rng: random.Random) -> str:
    raw = bytearray(text.encode())
    op = rng.randrange(4)
    if op == 0:
        for _ in range(rng.randrange(1, 4)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    elif op == 1:
        raw = raw[:rng.randrange(len(raw))]
    elif op == 2:
        at = rng.randrange(len(raw))
        raw[at:at] = rng.choice([b"{", b"]", b'"', b",", b"\\u12", b"[" * 5000, b"-", b"1e999", b"\x00", b"\xff"])
    else:
        at, length = rng.randrange(len(raw)), rng.randrange(1, 40)
        del raw[at:at + length]
    return bytes(raw)


def test_thousands_of_mutated_files_each_load_or_raise_one_load_error():
    text = _rich_file()
    assert files.loads(text) is not None
    data = json.loads(text)
    rng = random.Random(20260)
    outcomes = {"loaded": 0, "refused": 0}
    for i in range(N_MUTANTS):
        mutant = _structural(data, rng) if i % 2 else _textual(text, rng)
        try:
            g = files.loads(mutant)
        except LoadError as exc:
            assert str(exc), f"empty message for mutant {i}"
            outcomes["refused"] += 1
        else:
            outcomes["loaded"] += 1
            assert files.loads(files.dumps(g)) == g, f"mutant {i} loaded but does not round-trip"
            validate(g)
    assert outcomes["loaded"] > 100 and outcomes["refused"] > 1000


def test_whatever_loads_can_be_inferred_without_raising():
    text = _rich_file()
    data = json.loads(text)
    rng = random.Random(7)
    for _ in range(150):
        try:
            g = files.loads(_structural(data, rng))
        except LoadError:
            continue
        infer(g)


N_EXAMPLE_MUTANTS = 600


def _late(data, rng: random.Random) -> str:
    """A training setting, a title or a parameter set to one of the values that used to load and fail later."""
    data = copy.deepcopy(data)
    training = data.setdefault("training", {})
    key = rng.choice(["optimizer", "optimizer_params", "schedule", "device", "seed", "steps", "batch_size",
                      "val_every", "loss", "title", "param"])
    value = copy.deepcopy(rng.choice(LATE))
    if key == "title":
        rng.choice(data["nodes"])["title"] = value
    elif key == "param":
        params = rng.choice(data["nodes"]).setdefault("params", {})
        params[rng.choice(sorted(params) or ["seed"])] = value
    elif key in ("optimizer_params", "schedule") and isinstance(training.get(key), dict) and rng.random() < 0.5:
        training[key] = {**training[key], rng.choice(["lr", "step_size", "gamma", "momentum", "type"]): value}
    else:
        training[key] = value
    return json.dumps(data)


def _check_loaded(g, where: str) -> None:
    """What loaded saves (as UTF-8), loads back equal, and runs forward and a training step without raising."""
    text = files.dumps(g)
    text.encode("utf-8")
    assert files.loads(text) == g, f"{where} loaded but does not round-trip"
    Session(g).forward()  # errors are kept on their nodes
    for metrics in Session(g).train(1):  # or end the step with an error in its metrics
        assert "error" in metrics or metrics["loss"] is not None, where


def test_mutated_examples_load_save_round_trip_and_run_or_are_refused_with_one_load_error():
    texts = [p.read_text(encoding="utf-8") for p in sorted(lessons.EXAMPLES_DIR.glob("*.json"))]
    assert len(texts) >= 10
    datas = [json.loads(t) for t in texts]
    rng = random.Random(2121)
    outcomes = {"loaded": 0, "refused": 0}
    for i in range(N_EXAMPLE_MUTANTS):
        k = rng.randrange(len(texts))
        kind = i % 4
        mutant = _textual(texts[k], rng) if kind == 0 else _late(datas[k], rng) if kind == 1 else \
            _structural(datas[k], rng, LATE)
        try:
            g = files.loads(mutant)
        except LoadError as exc:
            assert str(exc) and len(str(exc)) < 1000, f"mutant {i}: {str(exc)[:200]}"
            outcomes["refused"] += 1
            continue
        outcomes["loaded"] += 1
        _check_loaded(g, f"mutant {i} of example {k}")
    assert outcomes["loaded"] > 60 and outcomes["refused"] > 200, outcomes
