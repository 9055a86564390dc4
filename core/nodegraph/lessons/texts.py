"""Lessons: the chapter as guided example graphs, listed in reading order and parsed into steps.

Where they live: ``EXAMPLES_DIR/NN-name.json`` (the graph, opened with ``files.load``) and beside it
``NN-name.md`` (the lesson text, Markdown). ``EXAMPLES_DIR`` is the package data folder
``core/nodegraph/assets/examples``, found through ``importlib.resources``, so an installed wheel finds
the lessons from any working directory. Lessons ``01``..``10`` come first in number order, then the
``playground-*`` models. A side file keeps the text readable and diff-friendly (no JSON escaping).

The lesson Markdown:

- ``# Title`` on the first line; the paragraphs up to the first step are the introduction.
- ``## Step title`` starts a step. Its prose says what to look at, what to press and what to expect.
  ``## Try this`` (a section without a steps block) is the suggested change; it has no checks.
- Links trigger app actions or highlight nodes: ``[Step backward](action:backward_step)``,
  ``[Backward all with retain_graph](action:backward?retain_graph=true)``, ``[x](node:n1)``.
  Action names are the app's Run actions (``ACTIONS``); arguments are ``key=value`` pairs, values read
  as JSON when they parse (``true``, ``3``, ``[1, 2]``), else as text.
- A fenced block with the info string ``steps`` holds what the step does and promises, one per line::

      do: backward retain_graph=true        # an action, same names and arguments as the links
      expect: x.grad = [1.5, -0.5]          # a promise the headless test checks

  ``expect: REF OP VALUE`` (a comment may follow after two spaces and ``#``). ``OP`` is one of ``=``
  (numbers agree when rounded to the decimals written: ``9.1619`` promises 4 places; otherwise to 1e-4
  relative), ``!=``, ``<``, ``>``, ``~`` (text contains, or list contains).
  ``REF`` is ``node`` or ``node.port`` (a value; the port may be a parameter a layer owns:
  ``model.weight``, ``mlp.0.bias``), optionally followed by an attribute: ``grad``, ``shape``, ``dtype``,
  ``device``, ``error`` (the message, or None), ``hints`` (the diagnostic rule ids on the node),
  ``contributions`` (ledger entries since zero_grad), ``is_leaf``, ``requires_grad``, ``contiguous``,
  ``grad_fn``, ``freed``, ``version`` (the version counter), ``shares_memory`` (the port shares storage
  with another port); ``grad.shape`` and ``grad.dtype`` read the gradient's. A node is named by its id
  or its (unique) title. Other refs: ``step`` (the graph node the last stepping action ran),
  ``losses.first``/``losses.last``/``losses.count`` (of the last ``train``), ``accuracy.last``,
  ``val_loss.last``/``val_accuracy.last`` (the last validation measured in it), ``hints`` (every rule id that fired).
  ``VALUE`` is JSON (``[1.5, -0.5]``, ``null``, ``true``; Python's ``None``/``True``/``False`` too) or plain text
  (``float32``, a node's title).

Every ``expect`` value (except true/false/None/[]) must also appear word for word in the step's prose,
so the text a learner reads and the test that checks it cannot drift apart (``check_prose`` reports
what is missing). ``core.nodegraph.lessons.runner`` runs the steps against a session; the GUI's Lesson
panel renders the text and follows the links.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["EXAMPLES_DIR", "ACTIONS", "ATTRIBUTES", "Action", "Expectation", "Link", "Step", "Lesson",
           "LessonError", "bundled_lesson", "list_lessons", "load_lesson", "parse_lesson", "parse_action",
           "parse_steps", "links", "check_prose"]

# Package data of core.nodegraph. The package is always installed as plain files (Qt cannot load from a zip),
# so the resource is a real folder and the lessons' paths are ordinary paths (Open Recent, the Lesson dock).
EXAMPLES_DIR = Path(str(resources.files("core.nodegraph").joinpath("assets", "examples")))

ACTIONS = {
    "forward_step": "evaluate the next node in topological order",
    "forward": "evaluate every remaining node (a new pass when complete)",
    "backward_step": "run one autograd node of the backward pass",
    "backward": "run the whole backward pass (retain_graph=true keeps the graph)",
    "zero_grad": "clear every .grad",
    "optimizer_step": "update the parameters with their gradients",
    "step_back": "show the state before the last step",
    "reset": "forget values and gradients",
    "retain_graph": "toggle retain_graph for the backward actions (value=true/false)",
    "retain_grad": "keep .grad on a non-leaf node's output (node=ID, from its next forward)",
    "set": "change a parameter: node=ID param=NAME value=JSON",
    "train": "run n steps of zero_grad, forward, backward, optimizer step (n=N; zero_grad=false: the buggy "
             "loop that forgets zero_grad)",
    "set_loss": "make a node the loss that backward and train start from (node=ID)",
}
ATTRIBUTES = ("grad", "shape", "dtype", "device", "error", "hints", "contributions", "is_leaf", "requires_grad",
              "contiguous", "grad_fn", "freed", "shares_memory", "version")

_LINK = re.compile(r"\[([^\]]+)\]\((action|node):([^)\s]+)\)")
_EXPECT = re.compile(r"^(\S+)\s*(!=|=|<|>|~)\s*(.+)$")
_FENCE = re.compile(r"^```steps[ \t]*\n(.*?)^```[ \t]*$", re.S | re.M)


_PYTHON = {"None": None, "True": True, "False": False}


class LessonError(ValueError):
    """A lesson file that does not follow the format; the message names the lesson and the line."""


@dataclass(frozen=True)
class Action:
    """An app action with its arguments, from a ``do:`` line or an ``action:`` link."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Expectation:
    """``ref op value``; ``text`` is the value as written (what the prose must contain)."""

    ref: str
    op: str
    value: object
    text: str

    @property
    def places(self) -> int | None:
        """The most decimals written in a number of the value (None when it has no decimal point)."""
        found = [len(d) for d in re.findall(r"\d\.(\d+)(?![\d.]*e)", self.text)]
        return max(found) if found else None


ProgramItem = tuple[str, Action | Expectation]  # ("do", Action) or ("expect", Expectation)


@dataclass(frozen=True)
class Link:
    """A link in the prose: ``kind`` is 'action' (target an Action) or 'node' (target a node id)."""

    label: str
    kind: str
    target: Action | str


@dataclass(frozen=True)
class Step:
    title: str
    text: str
    actions: tuple[Action, ...] = ()
    expects: tuple[Expectation, ...] = ()
    program: tuple[ProgramItem, ...] = ()  # ("do", Action) and ("expect", Expectation) in written order


@dataclass(frozen=True)
class Lesson:
    """One example: ``file`` the graph JSON, ``text`` the whole Markdown, parsed into intro and steps."""

    key: str
    title: str
    file: Path
    text: str
    intro: str
    steps: tuple[Step, ...]

    @property
    def try_this(self) -> str | None:
        return next((s.text for s in self.steps if s.title.lower().startswith("try this")), None)


def _value(text: str) -> Any:
    """JSON when it parses (numbers, lists, true, null; also Python's None, True, False), else the text."""
    if text in _PYTHON:
        return _PYTHON[text]
    try:
        return json.loads(text)
    except ValueError:
        return text


def parse_action(text: str) -> Action:
    """``"backward retain_graph=true"`` or ``"backward?retain_graph=true"`` as an Action."""
    name, _, rest = text.strip().replace("?", " ", 1).partition(" ")
    if name not in ACTIONS:
        raise LessonError(f"unknown action {name!r} (known: {', '.join(ACTIONS)})")
    args: dict[str, Any] = {}
    for part in rest.replace("&", " ").split():
        key, eq, val = part.partition("=")
        if not eq:
            raise LessonError(f"action {name!r}: argument {part!r} is not key=value")
        args[key] = _value(val)
    return Action(name, args)


def links(text: str) -> list[Link]:
    """Every ``[label](action:...)`` and ``[label](node:...)`` link in ``text``, in order."""
    out = []
    for label, kind, target in _LINK.findall(text):
        out.append(Link(label, kind, parse_action(target) if kind == "action" else target))
    return out


def _parse_program(block: str, where: str) -> tuple[ProgramItem, ...]:
    program: list[ProgramItem] = []
    for n, raw in enumerate(block.splitlines(), 1):
        line = raw.split("  #", 1)[0].strip()
        if not line:
            continue
        kind, _, rest = line.partition(":")
        try:
            if kind == "do":
                program.append(("do", parse_action(rest)))
            elif kind == "expect":
                m = _EXPECT.match(rest.strip())
                if m is None:
                    raise LessonError(f"expect needs 'REF OP VALUE', got {rest.strip()!r}")
                ref, op, val = m.groups()
                program.append(("expect", Expectation(ref, op, _value(val.strip()), val.strip().strip('"'))))
            else:
                raise LessonError(f"a steps line starts with 'do:' or 'expect:', got {line!r}")
        except LessonError as exc:
            raise LessonError(f"{where}, steps line {n}: {exc}") from None
    return tuple(program)


def parse_steps(block: str, where: str = "steps") -> tuple[ProgramItem, ...]:
    """The ``("do", Action)`` and ``("expect", Expectation)`` items of a steps block's text, in written order."""
    return _parse_program(block, where)


def _parse_step(title: str, body: str, where: str) -> Step:
    program: tuple[ProgramItem, ...] = ()
    for block in _FENCE.findall(body):
        program += _parse_program(block, f"{where}, step {title!r}")
    prose = _FENCE.sub("", body).strip()
    return Step(title, prose, tuple(a for _, a in program if isinstance(a, Action)),  # the "do" lines
                tuple(e for _, e in program if isinstance(e, Expectation)), program)  # the "expect" lines


def parse_lesson(markdown: str, where: str = "lesson") -> tuple[str, str, tuple[Step, ...]]:
    """``(title, intro, steps)`` of a lesson's Markdown; LessonError names what is wrong."""
    lines = markdown.splitlines()
    if not lines or not lines[0].startswith("# "):
        raise LessonError(f"{where}: the first line must be '# Title'")
    title = lines[0][2:].strip()
    sections = re.split(r"^## +(.+)$", "\n".join(lines[1:]), flags=re.M)
    intro = sections[0].strip()
    steps: list[Step] = []
    for head, body in zip(sections[1::2], sections[2::2]):
        steps.append(_parse_step(head.strip(), body, where))
    for s in steps:
        links(s.text)  # unknown actions in links are errors too
    return title, intro, tuple(steps)


def load_lesson(path: str | os.PathLike[str]) -> Lesson:
    """The lesson of graph file ``path`` (its ``.md`` side file)."""
    path = Path(path)
    md = path.with_suffix(".md")
    if not md.is_file():
        raise LessonError(f"{path.name}: no lesson text {md.name} beside it")
    text = md.read_text(encoding="utf-8")
    title, intro, steps = parse_lesson(text, md.name)
    return Lesson(path.stem, title, path, text, intro, steps)


def bundled_lesson(key: str) -> Lesson | None:
    """The bundled lesson with id ``key`` (its files' name, ``04-autograd-graph``: what a graph file's ``lesson``
    field holds), or None when this app has no such lesson. A key that is not a plain name is no lesson."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", key):
        return None
    path = EXAMPLES_DIR / f"{key}.json"
    if not (path.is_file() and path.with_suffix(".md").is_file()):
        return None
    return load_lesson(path)


def _order(path: Path) -> tuple[int, int, str]:
    head = path.stem.split("-", 1)[0]
    return (0, int(head), path.stem) if head.isdigit() else (1, 0, path.stem)


def list_lessons(folder: str | os.PathLike[str] | None = None) -> list[Lesson]:
    """Every example that has a lesson text, numbered lessons first (in order), then the playgrounds."""
    folder = EXAMPLES_DIR if folder is None else Path(folder)
    files = [p for p in folder.glob("*.json") if p.with_suffix(".md").is_file()]
    return [load_lesson(p) for p in sorted(files, key=_order)]


def check_prose(step: Step) -> list[str]:
    """The expect values of ``step`` that its prose does not state word for word (should be empty).

    Booleans, None and [] are exempt: the prose says them in words ("not contiguous", "no hints")."""
    return [e.text for e in step.expects
            if not (e.value is None or e.value == [] or isinstance(e.value, bool)) and e.text not in step.text]
