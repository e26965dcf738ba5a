"""OpenSpiel: importing this module registers the five games as Python games.

``sansu_uttt``, ``sansu_sansumoku``, ``sansu_sumodoku``, ``sansu_challenge``
and ``sansu_thirtyfive``, each also under a versioned name (``sansu_uttt_v1``:
:func:`short_names`, :data:`sansu.envs.VERSION`), with the
game's options as game parameters and the actions of every sansu environment
(:mod:`sansu.envs.encoding`)::

    import pyspiel
    import sansu.envs.openspiel  # noqa: F401  (registers the games)
    game = pyspiel.load_game("sansu_thirtyfive", {"rows": 6, "cols": 6})

Options without a value (Sumodoku's ``deal`` and ``seed``) take ``""`` and
``-1`` for "not given"; Sumodoku's layouts take ``none``, ``seed`` or a
layout; a Sudoku Challenge ``puzzle`` writes its blanks ``x`` (OpenSpiel
reads ``53..7`` back as a number). Two parameters add chance: Sumodoku's
``deals=N`` starts with a chance node that draws the deal from one of N
seeds, Sudoku Challenge's ``puzzles=N`` one that picks one of N generated
puzzles (when no ``puzzle`` is given). Sudoku Challenge is declared
imperfect information: the solution is in no player's hands; what players
observe is public. The engine state is immutable, so a cloned OpenSpiel
state shares it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import pyspiel

from sansu.core.protocol import Game
from sansu.core.registry import game_class, load_game
from sansu.envs import GAMES, VERSION
from sansu.envs.encoding import Encoding, encoding_for, returns
from sansu.envs.planes import PLANE_NAMES, mover_planes, plane_count, planes_option

LONGEST = 10_000
"""Sumodoku's claims (erase and place again) and Sudoku Challenge's timeouts have no
bound in the rules; OpenSpiel wants one, and no game comes near it."""
CHANCE = {"sumodoku": "deals", "challenge": "puzzles"}
"""The parameter that puts a chance node at the start of these games."""
UNSET = {"deal": "", "seed": -1}
"""OpenSpiel parameters need a typed default: these values mean 'not given'."""
LAYOUTS = {"none": False, "seed": True}
"""Sumodoku's ``parity`` and ``consecutive`` are text parameters here: ``none`` (off),
``seed`` (generated from the seed) or a layout (OpenSpiel reads ``false`` back as a flag)."""


def _parameters(game_id: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for spec in game_class(game_id).option_specs:
        default = spec.default
        if default is None:
            default = UNSET[spec.name]
        elif spec.name in ("parity", "consecutive"):
            default = "none"
        params[spec.name] = default
    if game_id in CHANCE:
        params[CHANCE[game_id]] = 0
    if game_id in PLANE_NAMES:
        params["observation"] = "int"
    return params


def _game_type(game_id: str, short_name: str) -> pyspiel.GameType:
    cls = game_class(game_id)
    players = (2, 5) if game_id == "challenge" else (2, 2)
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"sansu {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if game_id in CHANCE
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if game_id == "challenge"
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players[1],
        min_num_players=players[0],
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game_id),
    )


@lru_cache(maxsize=64)
def _engine(game_id: str, options: tuple[tuple[str, Any], ...]) -> Game:
    """The engine game of these options, built once (puzzles and layouts are costly)."""
    return load_game(game_id, **dict(options))


@lru_cache(maxsize=64)
def _encoding(game_id: str, options: tuple[tuple[str, Any], ...]) -> Encoding:
    """The encoding of these options' engine game, built once: after a chance node every
    action looks its move up in the encoding's table, which is costly to build."""
    return encoding_for(_engine(game_id, options))


def _with_seed(options: tuple[tuple[str, Any], ...], outcome: int | None) -> tuple:
    """The options of the chance node's draw ``outcome``: the seed moves on by it."""
    if outcome is None:
        return options
    base = max(0, dict(options).get("seed", 0))
    return tuple(sorted({**dict(options), "seed": base + outcome}.items()))


class _Shared:
    """Holds an immutable engine object; copies of the holder share it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class SansuGame(pyspiel.Game):
    """One sansu game with its options, as an OpenSpiel game."""

    game_id = ""
    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = _game_type(self.game_id, self.short_name)
        merged = {**game_type.parameter_specification, **(params or {})}
        options = {
            k: LAYOUTS.get(v, v)
            if k in ("parity", "consecutive")
            else v.replace("x", ".")
            if k == "puzzle"
            else v
            for k, v in merged.items()
            if k not in (CHANCE.get(self.game_id), "observation")
            and not (k in UNSET and v == UNSET[k])
        }
        chance = int(merged.get(CHANCE.get(self.game_id, ""), 0))
        if chance < 0:
            raise ValueError(f"{CHANCE[self.game_id]} must be 0 or more")
        if chance and self.game_id == "challenge" and options.get("puzzle"):
            raise ValueError("puzzles draws a generated puzzle: give it or a puzzle, not both")
        key = tuple(sorted(options.items()))
        first = _engine(self.game_id, _with_seed(key, 0 if chance else None))
        encoding = encoding_for(first)
        length = {"uttt": 81, "sansumoku": 81, "thirtyfive": encoding.num_actions // 9}
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=chance,
            num_players=first.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length.get(self.game_id, LONGEST),
        )
        super().__init__(game_type, info, params or {})
        self.chance_outcomes = chance
        self.options = key
        self.encoding = _Shared(encoding)
        self.planes = planes_option(self.game_id, merged.get("observation", "int"))
        """``None``, or the game whose one-hot planes (seen by the observing player) are
        the observation tensors (parameter ``observation="planes"``)."""

    def engine(self, outcome: int | None) -> Game:
        """The engine game; ``outcome``: the chance node's draw (a seed) when there is one."""
        return _engine(self.game_id, _with_seed(self.options, outcome))

    def new_initial_state(self) -> SansuState:
        return SansuState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return HistoryObserver()
        return BoardObserver(self.encoding.value, self.planes)


class SansuState(pyspiel.State):
    """An OpenSpiel state around an engine state (``None`` at the chance node)."""

    def __init__(self, game: SansuGame) -> None:
        super().__init__(game)
        # The Python side of ``game`` may not outlive this call: keep what is needed.
        self._game_id = game.game_id
        self._options = game.options
        self._chance = game.chance_outcomes
        self._players = game.num_players()
        self._encoding_held = game.encoding
        """The encoding of the game being played: the drawn one's after a chance node."""
        start = None if self._chance else game.engine(None).initial_state()
        self._engine = _Shared(start)

    @property
    def engine_state(self) -> Any:
        """The sansu state (``None`` before the chance node's draw)."""
        return self._engine.value

    def current_player(self) -> int:
        state = self._engine.value
        if state is None:
            return pyspiel.PlayerId.CHANCE
        if state.result is not None:
            return pyspiel.PlayerId.TERMINAL
        return state.to_move

    def _legal_actions(self, player: int) -> list[int]:
        return self._encoding().legal_actions(self._engine.value)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self._chance
        return [(k, 1.0 / n) for k in range(n)]

    def _apply_action(self, action: int) -> None:
        state = self._engine.value
        if state is None:
            drawn = _with_seed(self._options, int(action))
            self._engine = _Shared(_engine(self._game_id, drawn).initial_state())
            self._encoding_held = _Shared(_encoding(self._game_id, drawn))
            return
        self._engine = _Shared(state.play(self._encoding().move_of(state, action)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {int(action)}"
        return self._encoding().text_of(action)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SansuState:
        """A state consistent with what ``player_id`` knows, for ISMCTS: a copy of this one.

        Every action is public, and Sudoku Challenge's one hidden thing, the
        solution, is fixed by the public givens (a puzzle has exactly one
        solution; entries placed and digits found wrong agree with it), so
        no other state is consistent with a player's information.
        """
        return self.clone()

    def is_terminal(self) -> bool:
        state = self._engine.value
        return state is not None and state.result is not None

    def returns(self) -> list[float]:
        state = self._engine.value
        if state is None:
            return [0.0] * self._players
        return returns(state)

    def _encoding(self) -> Encoding:
        # Each chance outcome is a game of its own (deal, puzzle); same action numbers.
        return self._encoding_held.value

    def __str__(self) -> str:
        state = self._engine.value
        if state is None:
            return "(the deal is not drawn yet)"
        from sansu.render import render

        return render(state)


class BoardObserver:
    """What every player sees: the encoding's observation, flattened to float32; or, with
    ``planes``, its one-hot planes seen by the observing player (:mod:`sansu.envs.planes`)."""

    def __init__(self, encoding: Encoding, planes: str | None = None) -> None:
        shape = encoding.observation_shape
        if planes is not None:
            shape = (plane_count(planes), shape[-1])
        self.encoding = encoding
        self.planes = planes
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: SansuState, player: int) -> None:
        engine = state.engine_state
        if engine is None:
            self.tensor.fill(0.0)
            return
        obs = self.encoding.observation(engine)
        if self.planes is not None:
            obs = mover_planes(self.planes, obs, player)
        self.dict["observation"][...] = obs

    def string_from(self, state: SansuState, player: int) -> str:
        return str(state)


class HistoryObserver:
    """Information states: every action is public, so the history is what a player knows."""

    def __init__(self) -> None:
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: SansuState, player: int) -> None:
        pass

    def string_from(self, state: SansuState, player: int) -> str:
        return state.history_str()


def short_names(game_id: str) -> tuple[str, str]:
    """The game's OpenSpiel names: ``sansu_<id>_v<VERSION>`` and the unversioned
    ``sansu_<id>``, which always plays the newest version."""
    return f"sansu_{game_id}_v{VERSION}", f"sansu_{game_id}"


def _register() -> None:
    for game_id in GAMES:
        for name in short_names(game_id):
            attrs = {"game_id": game_id, "short_name": name}
            cls = type(f"Sansu{name.title().replace('_', '')}Game", (SansuGame,), attrs)
            globals()[cls.__name__] = cls
            pyspiel.register_game(_game_type(game_id, name), cls)


_register()
