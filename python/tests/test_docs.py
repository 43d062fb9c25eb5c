"""Every public name is documented the way ``help()`` and an API reference need it (numpydoc
sections: Parameters, Returns, Raises, Examples), and every example runs (doctest)."""

import ast
import dataclasses
import doctest
import importlib
import inspect
import os

import pytest

import slidetable as st

# the modules whose public names are checked, and whose examples are run
MODULES = ["slidetable", "slidetable.conventions", "slidetable.puzzle", "slidetable.solution", "slidetable.grading",
           "slidetable.table", "slidetable.search", "slidetable.lab", "slidetable.datasets"]
OPTIONAL = {"slidetable.gym": "gymnasium", "slidetable.gym.render": "gymnasium", "slidetable.gym.env": "gymnasium",
            "slidetable.gym.vector": "gymnasium", "slidetable.dask": "distributed"}


def modules():
    out = [importlib.import_module(m) for m in MODULES]
    for m, needs in OPTIONAL.items():
        try:
            importlib.import_module(needs)
        except ImportError:
            continue
        out.append(importlib.import_module(m))
    return out


def public(module):
    """(qualified name, object) for the module's public names and their public members."""
    names = getattr(module, "__all__", None)
    if names is None:  # the names defined in the module (not those it imports)
        names = [n for n, o in vars(module).items() if not n.startswith("_") and getattr(o, "__module__", None) == module.__name__]
    for name in names:
        obj = getattr(module, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue  # the extension's exceptions: documented by the class, checked in test_core
        if not (inspect.isclass(obj) or inspect.isfunction(obj)):
            continue  # constants and type names: documented by a #: comment beside them
        yield f"{module.__name__}.{name}", obj
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if attr.startswith("_") or attr in getattr(obj, "__dataclass_fields__", {}):
                    continue
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, property) or inspect.isfunction(member):
                    yield f"{module.__name__}.{name}.{attr}", member


def sections(doc):
    return {line.strip() for line, under in zip(doc.splitlines(), doc.splitlines()[1:]) if set(under.strip()) == {"-"}}


def described(doc):
    """The names a Parameters section describes: ``name : type`` lines, or ``a, b, c`` lines
    (names described together, or "as" another call's)."""
    names = set()
    for line in doc.splitlines():
        if line.startswith(" ") or not line.strip():
            continue  # descriptions are indented under their names
        head = line.split(" : ")[0]
        names.update(n.strip() for n in head.split(","))
    return names


def problems(qualname, obj):
    doc = inspect.getdoc(obj) or ""
    if not doc.strip():
        return ["no docstring"]
    if isinstance(obj, property):
        return []  # one line saying what it is, its type and shape
    out = []
    found = sections(doc)
    if "Examples" not in found or ">>>" not in doc:
        out.append("no Examples section with a >>> example")
    if inspect.isfunction(obj):
        sig = inspect.signature(obj)
        params = [p for p in sig.parameters if p not in ("self", "cls")]
        if params and "Parameters" not in found:
            out.append("no Parameters section")
        if params and "Raises" not in found:
            out.append("no Raises section")
        if sig.return_annotation not in (None, "None", inspect.Signature.empty) and "Returns" not in found:
            out.append("no Returns section")
        for p in params:
            if sig.parameters[p].kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                continue
            if p not in described(doc):
                out.append(f"parameter {p} not described")
    return out


def test_every_public_name_is_documented():
    bad = []
    for m in modules():
        for qualname, obj in public(m):
            bad += [f"{qualname}: {p}" for p in problems(qualname, obj)]
    assert not bad, "\n".join(bad)


def test_every_dataclass_field_is_documented():
    # an attribute docstring (the string under the field) is what help(), Sphinx and mkdocstrings show
    bad = []
    for m in modules():
        for qualname, obj in public(m):
            if not (inspect.isclass(obj) and dataclasses.is_dataclass(obj)):
                continue
            tree = ast.parse(inspect.getsource(obj))
            body = tree.body[0].body
            for i, node in enumerate(body):
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                    nxt = body[i + 1] if i + 1 < len(body) else None
                    if not (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant) and isinstance(nxt.value.value, str)):
                        bad.append(f"{qualname}.{node.target.id}")
    assert not bad, "fields without a docstring:\n" + "\n".join(bad)


@pytest.mark.parametrize("name", MODULES + list(OPTIONAL))
def test_the_examples_run(name, tmp_path, monkeypatch):
    if name in OPTIONAL:
        pytest.importorskip(OPTIONAL[name])
    module = importlib.import_module(name)
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=flags)
    tests = [t for t in finder.find(module, name, globs={"st": st, "np": __import__("numpy")}) if t.examples]
    # (the finder keeps to the objects defined in the module: a re-exported name's examples run
    # with the module that defines it)
    for t in tests:
        runner.run(t)
    r = runner.summarize(verbose=False)
    assert r.failed == 0, f"{r.failed} of {r.attempted} examples failed in {name} (the doctest output above says which)"


def test_every_gym_module_is_covered():
    # a new public submodule of slidetable.gym must join OPTIONAL, or its examples would not run
    gymnasium = pytest.importorskip("gymnasium")  # noqa: F841
    import pkgutil

    import slidetable.gym as g

    subs = {f"slidetable.gym.{m.name}" for m in pkgutil.iter_modules(g.__path__) if not m.name.startswith("_")}
    assert subs <= set(OPTIONAL), sorted(subs - set(OPTIONAL))
