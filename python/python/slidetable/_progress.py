"""Progress for the calls that can take more than a second: a ``tqdm.auto`` bar (a widget in
Jupyter, text in a terminal) shown once a call has run for a second, nothing with
``progress=False``, or the caller's own function.

The bar is tqdm's, imported when a long call has run a second: ``import slidetable`` never
imports it, a short call never makes one (no widget left in a notebook's metadata), and without
tqdm installed the calls run as before, without a bar. The bar's clock starts with the call.
"""

from __future__ import annotations

import importlib
import time
import warnings
from typing import Any, Callable, Optional

__all__: list[str] = []

#: Seconds a call runs before its bar shows: short calls print nothing.
DELAY = 1.0


def _tqdm() -> Optional[Any]:
    """tqdm.auto's bar: a widget in Jupyter when ipywidgets is there (the extra ``[notebook]``),
    else text; its warning that ipywidgets is missing is not repeated in every notebook."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module("tqdm.auto").tqdm
    except ImportError:
        return None


def check(progress: Any) -> None:
    """Refuses what ``progress=`` cannot be: None (a bar), True, False, or a function."""
    if progress is None or isinstance(progress, bool) or callable(progress):
        return
    raise TypeError(f"progress must be True, False, None (a bar after a second) or a function, not {type(progress).__name__}")


class _Bar:
    """What both kinds of progress share: the choice (bar, nothing, a function), the bar made
    once the call has run ``DELAY`` seconds (at once with ``progress=True``), its clock started
    with the call, and its closing."""

    def __init__(self, progress: Any, desc: str, unit: str):
        check(progress)
        self.user: Any = progress if callable(progress) and not isinstance(progress, bool) else None
        self.desc = desc
        self.unit = unit
        self.bar: Any = None
        self.wanted = progress is None or progress is True
        self.delay = 0.0 if progress is True else DELAY
        self.started = time.time()

    def _show(self, done: int, total: int, desc: str, start: int = 0, **postfix: Any) -> None:
        """Moves the bar to ``done`` of ``total`` (with ``postfix`` beside it), making it when
        the call has run long enough; ``start`` is what was done before the call (a resumed
        build's states), counted in the bar but not in its rate."""
        if self.bar is None:
            if not self.wanted or time.time() - self.started < self.delay:
                return
            tqdm = _tqdm()
            if tqdm is None:
                self.wanted = False
                return
            self.bar = tqdm(
                total=int(total), initial=int(start), desc=desc, unit=self.unit, unit_scale=True, dynamic_ncols=True
            )
            # the clock of the call, not of the bar: the time before it showed counts
            self.bar.start_t = self.started
        if postfix:
            self.bar.set_postfix(postfix, refresh=False)
        self.bar.update(int(done) - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Levels(_Bar):
    """A breadth-first build's progress (a dict after each depth: ``depth``, ``reached``,
    ``total``, ...) to a bar of states reached, a bar per table of a pattern build, or to the
    caller's function."""

    def __init__(self, progress: Any, desc: str):
        super().__init__(progress, desc, " states")
        self.table: Any = None
        # the states a build resumed from its work directory had found (told first, as
        # ``{"resumed": depth, "reached": states}``): in the bar from the start, not in its rate
        self.before = 0

    def __call__(self, p: dict) -> None:
        if "resumed" in p:
            self.before = int(p["reached"])
        if self.user is not None:
            self.user(p)
        if self.user is not None or "resumed" in p:
            return
        table = p.get("table")
        if self.bar is not None and table != self.table:
            self.close()
            self.started = time.time()
        self.table = table
        desc = self.desc if table is None else f"{self.desc}: table {table} of {p.get('tables', '?')} (tiles {p.get('tiles', '')})"
        start = self.before if table is None else 0
        self._show(int(p["reached"]), int(p["total"]), desc, start, depth=int(p["depth"]))


class Count(_Bar):
    """Work counted in items (boards labelled, boards solved, states graded):
    ``progress(done, total)`` to a bar, or to the caller's function."""

    def __call__(self, done: int, total: int) -> None:
        if self.user is not None:
            self.user(done, total)
            return
        self._show(done, total, self.desc)
