"""Every node category a learner sees in the Node library has words of its own ("In-place ops", not "inplace"),
and the node descriptions read as sentences a newcomer can follow (the pooling nodes said "max pool1ding")."""

import re

import core.nodegraph.model.nodes  # noqa: F401  (registers the built-in node types)
from core.nodegraph.model.spec import CATEGORY_TITLES, all_specs, categories, category_title, get_spec


def test_every_built_in_category_has_a_learners_title():
    assert sorted(set(categories()) - set(CATEGORY_TITLES)) == []
    assert category_title("expr") == "Expressions"
    assert category_title("probe") == "Probes (watch values)"
    assert category_title("inplace") == "In-place ops"


def test_a_category_without_a_title_reads_as_its_id_capitalised():
    assert category_title("plugin") == "Plugin"


def test_no_description_has_a_word_made_by_gluing_ing_onto_a_name():
    glued = re.compile(r"\w\dding\b|\w_\w+ing\b")
    assert [s.type_id for s in all_specs() if glued.search(s.description)] == []
    assert get_spec("nn.max_pool2d").description == "max pooling: the largest value of each kernel_size window (2-d)"
