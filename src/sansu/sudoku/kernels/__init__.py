"""The Sudoku toolkit's compiled part (numba): the solvers' searches and the rater's rungs.

Kept apart from the Python modules that call them so that what numba compiles
and caches on disk is in one place. :mod:`~sansu.sudoku.kernels.classic`
answers classic questions, :mod:`~sansu.sudoku.kernels.general` any rule set,
and :mod:`~sansu.sudoku.kernels.rater` runs the rater's first rungs.
"""
