"""``torch.onnx.symbolic_opset11``: the module of opset 11's symbolic functions that custom symbolics (torchvision's
``nms``, ``roi_align``) import at module level. Its functions build ONNX graph nodes during an export, which core
cannot run, so none is defined here: importing the module works, calling into it is an ``AttributeError``."""
