"""The Train dock's line on how training steps ran, in a learner's words: ``Training.step_mode`` (the path the last
step's forward took: the captured pass replayed, or every node step by step, and why) and
``Training.replayed_before_last`` (how many of the call's earlier steps replayed)."""

from __future__ import annotations

from core.nodegraph.training.captured import LAST_STEP

__all__ = ["STEP_MODES", "step_mode_words"]

REPLAYING = "captured (replaying)"
STEP_MODES = {  # Training.step_mode's states in a learner's words, short enough for the Train dock's line
    REPLAYING: "replayed (recorded once, same numbers)",
    "captured (recording)": "step by step, recording it for replay",
    "captured (checked against eager)": "replayed, checked against step by step",
    f"eager — {LAST_STEP}": "step by step (every node ran)",
}


def step_mode_words(mode: str, before: tuple[int, int] = (0, 0)) -> str:
    """The Train panel's line for ``Training.step_mode``: ``"Training step: replayed (recorded once, same numbers)"``
    or, for an eager step, ``"Training step: step by step, every node ran (<why>)"`` (a lone Step: no why). It is
    about the last step; where that ran eagerly after ``before`` = (replayed, ran) steps of its call of which some
    replayed, it says so too: '... the last step by step (every node ran); 27 of the 29 before it replayed ...' (it
    said 'replayed' for a call whose last step ran every node)."""
    kind, _, why = mode.partition(" — ")
    words = STEP_MODES.get(mode) or (f"step by step, every node ran ({why})" if kind == "eager" and why else mode)
    replayed, ran = before
    if kind == "eager" and replayed:
        return f"Training step: the last {words}; {replayed} of the {ran} before it {STEP_MODES[REPLAYING]}"
    return f"Training step: {words}"
