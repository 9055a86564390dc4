"""The headless command line: ``python app.py --headless [FILE] [--check] [--forward] [--backward] [--train N]
[--export-py OUT [--api core|torch] [--ddp]]``. No Qt here; ``app.py`` parses the arguments and calls ``run``.

Without FILE and without actions it prints the chapter's autograd example; actions without FILE run on the
app's start document (the chapter's graph). Actions run in the order check, forward, backward, train, export,
on one session seeded and placed by the graph's training settings. A FILE with no action is checked.

``--export-py`` with ``--train N`` exports N training steps instead of the graph's ``steps`` setting; with
``--api torch --ddp`` the script trains under ``torchrun`` with DistributedDataParallel (``export_ddp``).

Exit codes: 0 when everything ran cleanly; 1 when a node failed, a check found a problem or the export was
refused; 2 when the file can't be loaded or the arguments don't fit. Problems are one line on stderr
(``nodegrad: ...``), never a traceback.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, TextIO

import core

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph
    from core.nodegraph.run.session import Session

__all__ = ["run", "chapter_example", "add_arguments", "ACTIONS"]

ACTIONS = ("check", "forward", "backward", "train", "export_py")
BAR_WIDTH = 24


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The headless-only options (``--forward``, ``--backward``, ``--train`` are shared with ``--screenshot``)."""
    parser.add_argument("--check", action="store_true", help="with --headless: validate FILE and print diagnostics")
    parser.add_argument("--export-py", metavar="OUT", help="with --headless: write FILE as a standalone Python script")
    parser.add_argument("--api", choices=("core", "torch"), default="core",
                        help="with --export-py: the script imports core (default) or torch")
    parser.add_argument("--import-py", nargs=2, metavar=("SNIPPET", "OUT"),
                        help="with --headless: run SNIPPET.py (its own code, like running it) and write its graph to "
                             "OUT.json; the other actions then work on that graph")
    parser.add_argument("--ddp", action="store_true",
                        help="with --export-py --api torch: a training script that torchrun --nproc_per_node=N runs "
                             "with DistributedDataParallel")


def chapter_example(out: TextIO | None = None) -> int:
    """Print the chapter's autograd example computed by core."""
    out = out or sys.stdout
    x = core.tensor([2.0, 3.0], requires_grad=True)
    w = core.tensor([1.5, -0.5], requires_grad=True)
    b = core.tensor(0.1, requires_grad=True)
    z = (x * w).sum() + b
    z.backward()
    print(f"z = {z.item():.4f}", file=out)  # float(z) warns, as torch does, on a tensor requiring grad
    print("x.grad =", x.grad, file=out)
    print("w.grad =", w.grad, file=out)
    print("b.grad =", b.grad, file=out)
    return 0


def _fail(message: str, code: int) -> int:
    print(f"nodegrad: {message}", file=sys.stderr)
    return code


def _load(path: str | os.PathLike[str]) -> Graph:
    import core.nodegraph.model.nodes  # noqa: F401 - registers the node types; keeps `app.py -h` fast
    from core.nodegraph.files import io as files

    return files.load(path)


def _session(graph: Graph) -> Session:
    from core.nodegraph.run.session import Session

    t = graph.training
    return Session(graph, device=t.get("device") or "cpu", seed=int(t.get("seed") or 0))


def _label(graph: Graph, nid: str) -> str:
    node = graph.nodes[nid]
    return f"{nid} ({node.title or node.type})"


def _print_errors(s: Session, out: TextIO) -> int:
    for nid, err in s.errors.items():
        print(f"error {_label(s.graph, nid)}: {err}", file=out)
    return 1 if s.errors else 0


def _forward(s: Session, out: TextIO) -> int:
    s.forward()
    for nid in s.order:
        for port, value in (s.values.get(nid) or {}).items():
            print(f"{_label(s.graph, nid)}.{port} = {value!s}", file=out)
    return _print_errors(s, out)


def _backward(s: Session, out: TextIO) -> int:
    if not s.forward_complete or not s.values:
        s.forward()
    s.backward()
    for key, t in {**s.leaves(), **s.parameters()}.items():
        print(f"{key}.grad = {t.grad!s}", file=out)
    for key in s.no_gradient_parameters():
        print(f"no gradient: {key}", file=out)
    return _print_errors(s, out)


def _bar(done: int, total: int) -> str:
    filled = BAR_WIDTH * done // max(total, 1)
    return "[" + "#" * filled + "." * (BAR_WIDTH - filled) + "]"


def _train(s: Session, n: int, out: TextIO) -> int:
    if s.graph.training.get("loss") not in s.graph.nodes:
        return _fail("--train needs a loss node in the graph's training settings", 1)
    try:
        metrics = list(_steps(s, n, out))
    except (RuntimeError, TypeError, ValueError, AttributeError) as exc:  # what Session.train raises, not reports
        return _fail(f"can't train: {exc}", 1)
    last = metrics[-1] if metrics else {}
    diverged = last.get("loss") is not None and not math.isfinite(last["loss"])
    return 1 if "error" in last or diverged else 0


def _steps(s: Session, n: int, out: TextIO) -> Iterator[dict[str, Any]]:
    """Train ``n`` steps, printing each; the document's stop conditions end it early, like the Train button."""
    from core.nodegraph.training.stop import StopConditions

    stop = StopConditions.from_settings(s.graph.training.get("stop"))
    for m in s.train(n):
        yield m
        if "error" in m:
            if m.get("node") in s.graph.nodes:
                print(f"error {_label(s.graph, m['node'])} at step {m['step']}: {m['error']}", file=out)
            else:  # no node to blame: nothing to train, or a bad optimizer setting
                _fail(f"can't train: {getattr(m['error'], 'message', m['error'])}", 1)
            return
        val = "".join(f" {k} {m[k]:.6g}" for k in ("val_loss", "val_accuracy") if m.get(k) is not None)
        print(f"{_bar(m['step'] + 1, n)} step {m['step'] + 1}/{n} loss {m['loss']:.6g}{val}", file=out, flush=True)
        info = stop.stop_info(m, s)
        if info is not None:
            print(info["message"], file=out)
            return


def _check(graph: Graph, out: TextIO) -> int:
    from core.nodegraph.explain.diagnostics import diagnose
    from core.nodegraph.model.validation import validate

    issues = validate(graph)
    for nid, found in issues.items():
        for issue in found:
            print(f"invalid {nid}: {issue.message}", file=out)
    if issues:
        return 1
    s = _session(graph)
    s.forward()
    loss = s.loss_node()
    value = next(iter((s.values.get(loss) or {}).values()), None) if loss else None
    if isinstance(value, core.Tensor) and value.requires_grad:
        s.backward()
    hints = diagnose(s)
    for h in hints:
        print(str(h), file=out)
    for nid, err in s.errors.items():
        if not any(h.node_id == nid for h in hints):
            print(f"error: [{nid}] {err}", file=out)
    bad = bool(s.errors) or any(h.severity == "error" for h in hints)
    counts = ", ".join(f"{sum(h.severity == k for h in hints)} {k}s" for k in ("error", "warning", "info"))
    print(f"{len(graph.nodes)} nodes; hints: {counts}; " + ("problems found" if bad else "ok"), file=out)
    return 1 if bad else 0


def _export(graph: Graph, path: str, api: str, steps: int | None, out: TextIO, ddp: bool = False) -> int:
    from core.nodegraph.export.script import ExportError, write_script

    try:
        write_script(graph, path, api, steps, ddp)
    except ExportError as exc:
        return _fail(f"can't export: {exc}", 1)
    except OSError as exc:
        return _fail(f"can't write {path!r}: {exc.strerror or exc}", 1)
    print(f"wrote {path} ({api} script{', DistributedDataParallel' if ddp else ''})", file=out)
    return 0


def _import_py(args: argparse.Namespace, out: TextIO) -> int:
    """``--import-py SNIPPET OUT``: import the snippet (core.nodegraph.files.code_import), save the graph, run the
    actions."""
    from core.nodegraph.files import io as files
    from core.nodegraph.files.code_import import CodeImportError, import_path

    snippet, path = args.import_py
    if args.file is not None:
        return _fail("--import-py takes no FILE: the graph comes from the snippet", 2)
    try:
        result = import_path(snippet)
    except CodeImportError as exc:
        return _fail(f"can't import {snippet}: {exc}", 1)
    try:
        files.save(result.graph, path)
    except OSError as exc:
        return _fail(f"can't write {path!r}: {exc.strerror or exc}", 1)
    for note in result.notes:
        print(f"note: {note}", file=out)
    print(f"wrote {path} ({len(result.graph.nodes)} nodes from {snippet})", file=out)
    return _run_actions(result.graph, args, out) if _actions(args) else 0


def _actions(args: argparse.Namespace) -> list[str]:
    return [a for a in ACTIONS if getattr(args, a, None)]


def _run_actions(graph: Graph, args: argparse.Namespace, out: TextIO) -> int:
    actions = _actions(args) or ["check"]
    if args.train is not None and args.train < 0:
        return _fail("--train needs a number of steps >= 0", 2)
    if getattr(args, "ddp", False) and not (getattr(args, "export_py", None) and args.api == "torch"):
        return _fail("--ddp goes with --export-py OUT --api torch", 2)
    code = 0
    s: Session | None = None
    for action in actions:
        if action == "check":
            code |= _check(graph, out)
            continue
        if action == "export_py":
            code |= _export(graph, args.export_py, args.api, args.train or None, out, getattr(args, "ddp", False))
            continue
        s = s or _session(graph)
        code |= _forward(s, out) if action == "forward" else _backward(s, out) if action == "backward" else \
            _train(s, args.train, out)
    return code


def run(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """The headless run for parsed ``args`` (see ``add_arguments``); returns the exit code."""
    out = out or sys.stdout
    if getattr(args, "import_py", None):
        return _import_py(args, out)
    if args.file is None and not _actions(args):
        return chapter_example(out)
    try:
        if args.file is None:
            from core.nodegraph.files.examples import default_graph

            graph = default_graph()
        else:
            from core.nodegraph.files.io import LoadError

            try:
                graph = _load(args.file)
            except LoadError as exc:
                if str(args.file).lower().endswith(".py"):  # not JSON at all: say what the file is and what runs it
                    return _fail(f"can't load {args.file}: it is Python code, not a graph file; --import-py "
                                 f"{args.file} OUT.json runs it and writes the graph it computes", 2)
                return _fail(f"can't load {args.file}: {exc}", 2)
        return _run_actions(graph, args, out)
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except Exception as exc:  # one clear line instead of a traceback
        return _fail(f"{type(exc).__name__}: {exc}", 1)
