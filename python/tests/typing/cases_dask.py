"""slidetable.dask as a type checker sees it (checked by test_typing.py with mypy --strict)."""

from typing import Any, assert_type

import slidetable as st
import slidetable.dask as sd

p = st.Puzzle(3, 3)
boards = [[8, 6, 7, 2, 5, 4, 3, 0, 1]]
assert_type(sd.solve_batch(boards, p, heuristic="manhattan", algorithm="idastar", convention="tile"), st.BatchResult)
assert_type(sd.worker_stats(), dict[str, dict[str, dict[str, Any]]])
assert_type(sd.SolverPlugin(p, "pdb", "4-4").load(), st.Solver)
assert_type(sd.RESULTS_VERSION, int)
sd.solve_batch(boards, p, heuristic="manhatan")  # type: ignore[arg-type]
sd.solve_batch(boards, p, algorithm="dfs")  # type: ignore[arg-type]
sd.solve_batch(boards, p, convention="up")  # type: ignore[arg-type]
sd.solve_batch(boards, p, heuristic=st.PatternDB.build(p, "4-4"))  # type: ignore[arg-type]
sd.SolverPlugin(p, heuristic="lc")  # type: ignore[arg-type]
