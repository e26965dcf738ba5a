"""Human solving techniques on a board of pencil marks, for the rater and for hints.

Each technique module offers finders ``find(board) -> Step | None`` that
return one deduction a person could make, or nothing; the rater
(:mod:`sansu.sudoku.rater`) decides their order and what each is worth.
"""
