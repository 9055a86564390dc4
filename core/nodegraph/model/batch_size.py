"""The batch size of a graph's training: its ``data.dataset`` nodes' ``batch_size``, the one value a run reads.

Each training step draws its rows by the dataset node's own ``batch_size`` parameter (``nodes/data.py``,
``batch_rows``; 0: the whole set), so that parameter is the batch size: the node's summary shows it, a run uses
it, a file saves it. The Train dock's "Batch size" field shows and edits it through ``batch_size`` and
``set_batch_size`` (one undoable edit, named as the node's own edit is: "data: batch_size set to 16"); it is
disabled, with ``why_fixed``'s words as its tooltip, when the graph has no dataset node or its dataset nodes
disagree.

Documents hold no ``training["batch_size"]`` setting (files up to version 3 did, unread by any run: runs always drew
by the node's parameter); loading such a file moves a value other than the old default onto its dataset nodes
(``core.nodegraph.files.migrations.v3_to_v4``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.nodegraph.model.commands import Command, Macro, SetParam

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["DATASET_TYPE", "dataset_nodes", "batch_size", "why_fixed", "set_batch_size"]

DATASET_TYPE = "data.dataset"


def dataset_nodes(graph: Graph) -> list[str]:
    """The ids of the graph's dataset nodes, in the document's order."""
    return [nid for nid, node in graph.nodes.items() if node.type == DATASET_TYPE]


def _sizes(graph: Graph) -> set[int]:
    return {int(graph.nodes[nid].params.get("batch_size", 32)) for nid in dataset_nodes(graph)}


def batch_size(graph: Graph) -> int | None:
    """The rows per training step its dataset nodes draw (0: the whole set); None without one or when they differ."""
    sizes = _sizes(graph)
    return sizes.pop() if len(sizes) == 1 else None


def why_fixed(graph: Graph) -> str | None:
    """Why the batch size can't be set as one number here (None where it can), in a learner's words."""
    ids = dataset_nodes(graph)
    if not ids:
        return ("no dataset node: each step uses the tensors the graph's nodes make (a dataset node's "
                "batch_size sets the rows per step)")
    if len(_sizes(graph)) > 1:
        return "the dataset nodes draw different batch sizes: set each node's batch_size in the Inspector"
    return None


def set_batch_size(graph: Graph, value: int) -> Command:
    """The edit that makes every dataset node draw ``value`` rows per step: a ``SetParam`` for one node, one
    ``Macro`` for several ("Batch size set to 16"). ValueError where ``why_fixed`` says why not."""
    why = why_fixed(graph)
    if why is not None:
        raise ValueError(f"can't set the batch size: {why}")
    edits = [SetParam(nid, "batch_size", value) for nid in dataset_nodes(graph)]
    return edits[0] if len(edits) == 1 else Macro(f"Batch size set to {value}", edits)
