"""What loads can be saved, and refusals stay short: a lone surrogate in any text of a file is refused on load
(no UTF-8 file can hold it), a refusal quotes at most about 100 characters of the bad value however big it is,
and a node's seed takes the whole uint64 range that ``torch.Generator.manual_seed`` takes."""

import copy
import json

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.io import LoadError
from core.nodegraph.model.spec import QUOTE_MAX, quote
from core.nodegraph.run.session import Session

BASE = files.to_file_dict(default_graph())


def _text(edit) -> str:
    data = copy.deepcopy(BASE)
    edit(data)
    return json.dumps(data)  # ensure_ascii: a lone surrogate is written as the escape \ud800


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["nodes"][0].update(title="x\ud800"), "nodes[0].title"),
    (lambda d: d["nodes"].append({"id": "n9", "type": "future.\udc00", "params": {}}), "nodes[6].type"),
    (lambda d: d["nodes"].append({"id": "n9", "type": "future.widget", "params": {"k": ["\ud83d"]}}),
     "nodes[6].params.k[0]"),
    (lambda d: d["view"].update({"\ud800": 1}), "view.\\ud800 (a key)"),
])
def test_a_lone_surrogate_anywhere_is_refused_on_load_naming_the_field(edit, where):
    with pytest.raises(LoadError) as info:
        files.loads(_text(edit))
    assert str(info.value).startswith(f"{where}: holds a lone surrogate")
    str(info.value).encode("utf-8")  # the message itself can be shown and logged


def test_a_surrogate_pair_is_one_character_and_loads_and_saves():
    g = files.loads(_text(lambda d: d["nodes"][0].update(title="x \ud83d\ude00")))
    assert g.nodes["n1"].title == "x \N{GRINNING FACE}"
    assert files.loads(files.dumps(g).encode("utf-8")) == g


def test_a_lone_surrogate_in_a_pasted_fragment_is_refused_like_in_a_file():
    text = json.dumps({"nodes": [{"id": "n1", "type": "source.tensor", "params": {}, "title": "\ud800"}], "edges": []})
    with pytest.raises(LoadError, match=r"^nodes\[0\]\.title: holds a lone surrogate"):
        files.loads_fragment(text)


@pytest.mark.parametrize("edit", [
    lambda d: d["nodes"][0]["params"].update({"x" * 5_000_000: 1}),  # a 5 MB parameter name
    lambda d: d["nodes"][0]["params"].update(requires_grad=list(range(1_000_000))),
    lambda d: d["nodes"][3]["params"].update(foo=1) or d["nodes"][0].update(type="source.zeros",
                                                                             params={"shape": [1] * 100_000}),
    lambda d: d["training"].update(optimizer_params={"lr": "y" * 1_000_000}),
    lambda d: d["training"].update(device="z" * 99),
    lambda d: d["node_types"].update({"source.tensor": 10 ** 4000}),
])
def test_a_refusal_quotes_at_most_about_a_hundred_characters_of_the_value(edit):
    with pytest.raises(LoadError) as info:
        files.loads(_text(edit))
    assert len(str(info.value)) < 3 * QUOTE_MAX + 100


def test_quote_cuts_long_text_and_says_how_long_it_was():
    assert quote("abc") == "'abc'"
    cut = quote("x" * 5000)
    assert len(cut) < QUOTE_MAX + 30 and cut.endswith("(5000 characters)")
    assert len(quote(list(range(10 ** 6)))) <= QUOTE_MAX


def test_the_largest_uint64_seed_loads_and_draws_what_torch_draws_with_it(torch):
    seed = 2 ** 64 - 1
    g = files.loads(_text(lambda d: d["nodes"][0].update(type="source.randn",
                                                         params={"shape": [3], "seed": seed})))
    s = Session(g)
    s.forward()
    want = torch.randn(3, generator=torch.Generator().manual_seed(seed))
    assert s.values["n1"]["out"].tolist() == pytest.approx(want.tolist())


def test_a_seed_past_the_uint64_range_is_refused():
    with pytest.raises(LoadError, match=r"seed in \[0, 2\*\*64 - 1\]"):
        files.loads(_text(lambda d: d["nodes"][0].update(type="source.randn", params={"shape": [3], "seed": 2 ** 64})))
