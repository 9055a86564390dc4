"""``check_syntax`` refuses a snippet with the error and line its import would give, running nothing: the GUI checks
a pasted snippet this way before it asks whether to save the document the import would replace."""

import pytest

from core.nodegraph.files.code_import import MAX_SOURCE, CodeImportError, check_syntax, import_here

BAD = [
    "import torch\nx = torch.ones(3\ny = (x * 2).sum()\n",  # a bracket never closed
    "import torch\nx = torch.ones(3,, 4)\n",
    "return 5\n",  # an error compile finds, not the parser
    "import torch\n  x = torch.ones(3)\n",  # an indent
    "x = 1\n\0",
    "def f(:\n    pass\n",
]


def _refusal(run, text):
    with pytest.raises(CodeImportError) as info:
        run(text)
    return str(info.value), info.value.line


@pytest.mark.parametrize("text", BAD)
def test_a_syntax_error_is_refused_with_the_message_and_line_its_import_gives(text):
    assert _refusal(check_syntax, text) == _refusal(import_here, text)
    assert "SyntaxError" in _refusal(check_syntax, text)[0]


def test_code_that_parses_passes_without_running_even_when_running_it_would_fail(tmp_path):
    marker = tmp_path / "ran"
    check_syntax(f"open({str(marker)!r}, 'w').write('x')\nraise RuntimeError('boom')\ny = q\n")
    assert not marker.exists()


def test_a_snippet_longer_than_the_limit_is_refused_as_its_import_refuses_it():
    text = "x = 1\n" * (MAX_SOURCE // 6 + 1)
    assert _refusal(check_syntax, text) == _refusal(import_here, text)
