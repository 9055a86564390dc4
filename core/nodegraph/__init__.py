"""core.nodegraph: the playground's graph documents and their execution (headless, no Qt)."""
