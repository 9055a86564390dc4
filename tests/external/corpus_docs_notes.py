"""PyTorch's documentation pages (``docs/source/**/*.rst``) as corpus scripts: their code blocks, in order.

``rst_to_script`` is what ``fetch_corpus.py`` calls for an ``.rst`` path. A page's code is what a learner copies:
``.. code::`` / ``.. code-block:: python`` / ``.. testcode::`` / ``.. doctest::`` blocks, literal blocks after a
paragraph ending in ``::``, and ``>>>`` doctest lines anywhere (in a ``.. note::`` too). Each block is one cell (the
recipes keep going: a page's snippets raise on purpose, or use a name an earlier snippet left undefined). In a
doctest, each ``>>>`` statement (with its ``...`` lines) is the code and the lines after it are the output the page
shows, which are dropped; a bare expression is displayed as the doctest would show it (its ``repr``, nothing for
``None``). A code block may show outputs the same way after ``: `` lines (the modules note); those are dropped
too, and the expression before one is displayed. A literal block that is not Python (a shell command, a printed
table) is dropped; a block that is declared Python but is a fragment (``return output`` outside a function) is
kept and fails alike in both runs.
Blocks in another language (``.. code-block:: cpp``, ``bash``...) and ``.. testoutput::`` are skipped.
The script starts with ``# docs page preamble`` (a line each recipe replaces with its imports, seed and stand-ins).
"""

from __future__ import annotations

import ast
import textwrap

PREAMBLE = "# docs page preamble"
PYTHON = ("", "python", "python3", "py", "pycon", "default")
CODE_DIRECTIVES = ("code", "code-block", "sourcecode", "testcode", "testsetup", "doctest", "ipython")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _block_after(lines: list[str], start: int, base: int) -> tuple[list[str], int]:
    """The indented block that follows line ``start - 1`` (indented deeper than ``base``): its lines and the index
    after it. Directive options (``:caption: ...``) right after the directive are skipped."""
    i = start
    while i < len(lines) and lines[i].strip().startswith(":") and _indent(lines[i]) > base:
        i += 1
    block = []
    while i < len(lines) and (not lines[i].strip() or _indent(lines[i]) > base):
        block.append(lines[i])
        i += 1
    while block and not block[-1].strip():
        block.pop()
    return block, i


def _display(statement: str) -> str:
    """A doctest statement as script text: a bare expression shows its ``repr`` unless it is ``None``."""
    try:
        tree = ast.parse(statement)
    except SyntaxError:
        return statement
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):  # (its trailing comment dropped)
        shown = ast.get_source_segment(statement, tree.body[0].value)
        return f"__shown = ({shown})\nif __shown is not None:\n    print(repr(__shown))"
    return statement


def _doctest(lines: list[str]) -> list[str]:
    """The statements of doctest lines (``>>>`` and their ``...`` continuations), one cell each as a doctest runs
    each example whatever the one before raised; output lines are dropped."""
    statements, current, body_column = [], None, None
    for line in lines:
        text = line.strip()
        if text.startswith(">>>"):
            if current is not None:
                statements.append(current)
            current = [text[4:] if text.startswith(">>> ") else text[3:]]
            # NOTE: a page may write a class's body without ``...`` prompts (the serialization note): the lines
            # after a ``>>>`` header ending in ``:`` belong to it, indented from the prompt's text column
            body_column = line.index(">>>") + 4 if text.endswith(":") else None
        elif text.startswith("...") and current is not None:
            current.append(text[4:] if text.startswith("... ") else text[3:])
        elif current is not None and body_column is not None and (not text or _indent(line) > body_column):
            current.append(line[body_column:] if text else "")
        elif current is not None:
            statements.append(current)
            current = None
    if current is not None:
        statements.append(current)
    return [_display("\n".join(s).rstrip()) for s in statements if "".join(s).strip()]


def _is_doctest(lines: list[str]) -> bool:
    return any(line.strip().startswith(">>>") for line in lines)


def _parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:
        return False
    return True


def _shown_outputs(code: str) -> str:
    """A block that shows outputs after ``: `` (the modules note: ``m(x)`` then ``: tensor([...])``, up to the next
    blank line) without them, the expression before each output displayed as a doctest would show it."""
    lines, out, i = code.splitlines(), [], 0
    while i < len(lines):
        if not lines[i].startswith(":"):
            out.append(lines[i])
            i += 1
            continue
        while i < len(lines) and lines[i].strip():
            i += 1
        segment = "\n".join(out)
        try:
            last = ast.parse(segment).body[-1]
        except (SyntaxError, IndexError):
            continue
        if isinstance(last, ast.Expr) and last.col_offset == 0:
            shown = _display(ast.get_source_segment(segment, last))
            out = [*out[:last.lineno - 1], *shown.splitlines()]
    return "\n".join(out)


def _cells(block: list[str], declared_python: bool) -> list[str]:
    if _is_doctest(block):
        return _doctest(block)
    code = _shown_outputs(textwrap.dedent("\n".join(block)).strip("\n"))
    if not code.strip() or (not declared_python and not _parses(code)):
        return []
    return [code]


def _directive(text: str) -> tuple[str, str] | None:
    """``(name, argument)`` of a ``.. name:: argument`` line, else None."""
    if not text.startswith(".. ") or "::" not in text:
        return None
    name, _, argument = text[3:].partition("::")
    return name.strip(), argument.strip().lower()


def rst_cells(text: str) -> list[str]:
    """The code cells of a reStructuredText page, in order."""
    lines, cells, i = text.splitlines(), [], 0
    while i < len(lines):
        line, text_i = lines[i], lines[i].strip()
        directive = _directive(text_i)
        if directive and directive[0] in CODE_DIRECTIVES:
            block, i = _block_after(lines, i + 1, _indent(line))
            if directive[0] in ("testcode", "testsetup", "doctest") or directive[1] in PYTHON:
                cells += _cells(block, declared_python=True)
            continue
        if directive and directive[0] in ("testoutput", "math", "code-output"):
            _, i = _block_after(lines, i + 1, _indent(line))
            continue
        if text_i.endswith("::") and not directive and text_i != "::" or text_i == "::":
            block, after = _block_after(lines, i + 1, _indent(line))
            if block:
                cells += _cells(block, declared_python=False)
                i = after
                continue
        if text_i.startswith(">>>"):  # doctest lines in running text or a note: up to the next blank line
            start = i
            while i < len(lines) and lines[i].strip():
                i += 1
            cells += _doctest(lines[start:i])
            continue
        i += 1
    return cells


def rst_to_script(text: str, separator: str = "\n\n") -> str:
    """A page's code cells as one script (``separator`` between cells), after the preamble line."""
    return separator.join([PREAMBLE, *rst_cells(text)]) + "\n"
