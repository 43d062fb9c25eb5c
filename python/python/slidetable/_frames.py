"""Data frames of the package's results, for pandas and polars users: neither is a dependency.
``to_pandas()`` and ``to_polars()`` on ``Grade``, ``BatchResult`` and ``Dataset`` hand the same
typed columns (numpy arrays, their dtypes kept) to whichever library is installed, and say how to
install it when it is not."""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np

__all__: list[str] = []


def _signed(v: np.ndarray) -> np.ndarray:
    """Counts and distances kept as uint32 or uint64 become int64 in a frame:
    ``df.overestimates - df.states`` must not wrap round to 18446744073709551615 (every figure
    here is far below 2**63). A board's cells (uint8) stay as they are."""
    return v.astype(np.int64) if v.dtype in (np.uint32, np.uint64) else v


def pandas_frame(columns: dict[str, Any], what: str) -> Any:
    """A pandas DataFrame of ``columns`` (name -> array or list), in their order."""
    try:
        # imported by name: neither library (nor its type stubs) is a dependency
        pd: Any = importlib.import_module("pandas")
    except ImportError:
        raise ImportError(f"{what}.to_pandas() needs pandas: pip install pandas (or slidetable[pandas])") from None
    return pd.DataFrame({k: (_signed(v) if isinstance(v, np.ndarray) else pd.array(v, dtype="string")) for k, v in columns.items()})


def polars_frame(columns: dict[str, Any], what: str) -> Any:
    """A polars DataFrame of ``columns`` (name -> array or list), in their order."""
    try:
        pl: Any = importlib.import_module("polars")
    except ImportError:
        raise ImportError(f"{what}.to_polars() needs polars: pip install polars (or slidetable[polars])") from None
    return pl.DataFrame(
        {k: (pl.Series(k, _signed(v)) if isinstance(v, np.ndarray) else pl.Series(k, v, dtype=pl.Utf8)) for k, v in columns.items()}
    )
