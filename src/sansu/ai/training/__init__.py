"""Training the networks by self-play: ``sansu train``'s pipeline and where its work runs.

- :mod:`~sansu.ai.training.pipeline`: a run's generations (self-play, fitting,
  a match, promotion) in a checkpoint directory, and the fitting itself.
- :mod:`~sansu.ai.training.selfplay`: the games of one task (self-play or a
  match game), run in worker processes.
- :mod:`~sansu.ai.training.workers`: where those tasks run (here, a process
  pool, or Ray).
- :mod:`~sansu.ai.training.thirtyfive_data`: self-play positions for fitting
  35's leaf evaluator.

The computer players themselves (:mod:`sansu.ai`) need none of this.
"""

from __future__ import annotations

from sansu.ai.training.pipeline import MatchReport, Run, TrainConfig, fit, loss, train
from sansu.ai.training.selfplay import match_game, self_play
from sansu.ai.training.workers import Mapper

__all__ = [
    "Mapper",
    "MatchReport",
    "Run",
    "TrainConfig",
    "fit",
    "loss",
    "match_game",
    "self_play",
    "train",
]
