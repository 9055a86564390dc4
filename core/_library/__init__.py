"""``torch._library``: the schema parser, operator registry and opcheck tests behind ``core.library``."""
