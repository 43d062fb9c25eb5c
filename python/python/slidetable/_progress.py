"""Progress for the calls that can take more than a second: a ``tqdm.auto`` bar (a widget in
Jupyter, text in a terminal) shown once a call has run for a second, nothing with
``progress=False``, or the caller's own function.

The bar is tqdm's, imported when a long call starts: ``import slidetable`` never imports it,
and without tqdm installed the calls run as before, without a bar.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any, Callable, Optional

__all__: list[str] = []

#: Seconds a call runs before its bar shows (tqdm's ``delay``): short calls print nothing.
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


class Levels:
    """A breadth-first build's progress (a dict after each depth: ``depth``, ``reached``,
    ``total``, ...) to a bar of states reached, or to the caller's function."""

    def __init__(self, progress: Any, desc: str):
        check(progress)
        self.user: Optional[Callable[[dict], Any]] = progress if callable(progress) and not isinstance(progress, bool) else None
        self.desc = desc
        self.bar: Any = None
        self.wanted = progress is None or progress is True
        self.delay = 0.0 if progress is True else DELAY
        self.table: Any = None

    def __call__(self, p: dict) -> None:
        if self.user is not None:
            self.user(p)
            return
        if not self.wanted:
            return
        # a pattern build's tables one after the other: a bar each
        table = p.get("table")
        if self.bar is not None and table is not None and table != self.table:
            self.close()
        if self.bar is None:
            tqdm = _tqdm()
            if tqdm is None:
                self.wanted = False
                return
            desc = self.desc if table is None else f"{self.desc}: table {table} of {p.get('tables', '?')} (tiles {p.get('tiles', '')})"
            self.bar = tqdm(total=int(p["total"]), desc=desc, unit=" states", unit_scale=True, delay=self.delay, dynamic_ncols=True)
            self.table = table
        self.bar.set_postfix(depth=int(p["depth"]), refresh=False)
        # update (not n and refresh): tqdm shows a delayed bar from an update only
        self.bar.update(int(p["reached"]) - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> "Levels":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class Count:
    """Work counted in items (boards labelled, boards solved): ``progress(done, total)`` to a
    bar, or to the caller's function."""

    def __init__(self, progress: Any, desc: str, unit: str):
        check(progress)
        self.user: Optional[Callable[[int, int], Any]] = progress if callable(progress) and not isinstance(progress, bool) else None
        self.desc = desc
        self.unit = unit
        self.bar: Any = None
        self.wanted = progress is None or progress is True
        self.delay = 0.0 if progress is True else DELAY

    def __call__(self, done: int, total: int) -> None:
        if self.user is not None:
            self.user(done, total)
            return
        if not self.wanted:
            return
        if self.bar is None:
            tqdm = _tqdm()
            if tqdm is None:
                self.wanted = False
                return
            self.bar = tqdm(total=int(total), desc=self.desc, unit=self.unit, unit_scale=True, delay=self.delay, dynamic_ncols=True)
        self.bar.update(int(done) - self.bar.n)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> "Count":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
