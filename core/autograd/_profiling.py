"""Whether a profile is open: the list of open ``core.autograd.profiler.profile``s (empty when none is).

Its own module so that the engine, the optimizers and ``F.linear`` can ask with one list check, without importing
the profiler (which imports the ops) on their hot paths.
"""

recording: list = []  # the open profiles, outermost first
