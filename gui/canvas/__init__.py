"""The node editor's canvas: a QGraphicsScene mirroring a Graph, its items, and the view."""
