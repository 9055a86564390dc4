"""``torch.jit.interface`` in eager mode: the decorator TorchScript uses to declare an interface type (torchaudio's
HiFi-GAN declares its residual blocks' with it). Eager code only needs the class back, checked and marked as
PyTorch does, with the name TorchScript would give it."""

from __future__ import annotations

import ast
import inspect
import textwrap
import warnings


def _script_name(cls) -> str:
    """TorchScript's qualified name of a class: ``__torch__.<module>.<name>`` (``__torch__.<name>`` in a script)."""
    module = cls.__module__.replace("<", "_").replace(">", "_")
    return f"__torch__.{cls.__name__}" if module == "__main__" else f"__torch__.{module}.{cls.__name__}"


def interface(obj):
    """The class itself, marked ``__torch_script_interface__``; a non-class, or a class with a base other than
    ``object`` or ``nn.Module``, is refused as PyTorch refuses it."""
    from core.nn.module import Module

    warnings.warn("`torch.jit.interface` is deprecated. Please use `torch.compile` instead.", DeprecationWarning,
                  stacklevel=2)
    if not inspect.isclass(obj):
        raise RuntimeError("interface must be applied to a class")
    is_module_interface = issubclass(obj, Module) and len(obj.mro()) == 3
    if not is_module_interface and len(obj.mro()) > 2:
        raise RuntimeError("TorchScript interface does not support inheritance yet. Please directly inherit from "
                           "'object' or 'nn.Module'.")
    _check_declarations(obj)
    obj.__torch_script_interface__ = _script_name(obj)
    return obj


def _check_declarations(cls) -> None:
    """TorchScript compiles an interface as it is declared: each method's return type annotated, its body a
    ``pass`` (after docstrings), else PyTorch's RuntimeError pointing at the method. Without source (a class
    typed at a prompt) there is nothing to check: core takes the class, where PyTorch raises OSError."""
    try:
        lines, first = inspect.getsourcelines(cls)
        file = inspect.getsourcefile(cls)
    except (OSError, TypeError):
        return
    (class_def,) = ast.parse(textwrap.dedent("".join(lines))).body
    for method in class_def.body:
        if not isinstance(method, ast.FunctionDef):
            continue
        if method.returns is None:
            _refuse("interface declarations must have a return type annotated.", method, lines, first, file)
        body = method.body
        for statement in body[:-1]:  # string literals (comments) may come before the pass; a pass ends the check
            if isinstance(statement, ast.Expr) and not (isinstance(statement.value, ast.Constant)
                                                        and isinstance(statement.value.value, str)):
                _refuse("interfaces declarations should only contain a single 'pass' statement.", method, lines,
                        first, file)
            if isinstance(statement, ast.Pass):
                return
        if not isinstance(body[-1], ast.Pass):
            _refuse("interfaces declarations should contain 'pass' statement.", method, lines, first, file)


def _refuse(message: str, method: ast.FunctionDef, lines: list, first: int, file) -> None:
    """PyTorch's ErrorReport: the message, where, and the method's lines each underlined."""
    shown = []
    for line in lines[method.lineno - 1:method.end_lineno]:
        text = line.rstrip("\n")
        start = len(text) - len(text.lstrip())
        shown += [text, " " * start + "~" * (len(text) - start)]
    shown[-1] += " <--- HERE"
    where = f'  File "{file}", line {first + method.lineno - 1}'
    raise RuntimeError(f"\n{message}:\n{where}\n" + "\n".join(shown) + "\n")
