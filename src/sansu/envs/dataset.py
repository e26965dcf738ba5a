"""Games as training data: one row per position, written as Parquet (``pyarrow``).

Two sources, one table (:data:`COLUMNS`; the card is ``docs/dataset.md``):

* recorded games — the moves of a game from its start (a server's stored
  games: :mod:`sansu.cli.export` reads them), replayed through the engine;
* self-play — :func:`self_play` lets :class:`sansu.ai.mcts.MCTS` play both
  seats and keeps, at every position, the search's value and the visit count
  of every action: the targets of a policy-value network.

Every row is made by the engine: the observation and legal actions are the
encoding's (:mod:`sansu.envs.encoding`), the move is replayed before the
next row is made, so a row never says what the rules would not.
:func:`replay` reads a table back and checks each row against the engine.
``pyarrow`` comes with the ``envs`` extra.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from sansu.core.protocol import Game, Result, State
from sansu.core.registry import load_game
from sansu.envs.encoding import encoding_for, returns_of

COLUMNS = {
    "source": "where the game comes from: 'server' or 'selfplay'",
    "game_key": "the game: the server's game id, or 'selfplay-<seed>-<n>'",
    "game": "the engine's game id (uttt, sansumoku, sumodoku, challenge, thirtyfive)",
    "options": "the game's options as JSON (enough to load the game again)",
    "ply": "moves played before this position (0: the initial position)",
    "to_move": "the player to move",
    "observation": "the encoding's observation, flattened (docs/research.md)",
    "observation_shape": "its shape",
    "legal_actions": "the legal actions of the player to move, ascending",
    "action": "the action played from this position",
    "move": "that move's canonical text",
    "returns": "each player's final reward: +1 win, -1 loss, 0 draw (Challenge: by rank)",
    "reason": "how the game ended (the rules' reason, 'resignation', 'time', ...)",
    "value": "self-play: the search's value for the player to move, in [-1, 1]; else null",
    "visits": "self-play: the search's visits of every action (num_actions long); else null",
    "simulations": "self-play: the search's simulations; else null",
}
"""The columns, in order, and what each holds."""


def schema() -> Any:
    """The Parquet schema of :data:`COLUMNS`."""
    import pyarrow as pa

    types = {
        "source": pa.string(),
        "game_key": pa.string(),
        "game": pa.string(),
        "options": pa.string(),
        "ply": pa.int32(),
        "to_move": pa.int8(),
        "observation": pa.list_(pa.int16()),
        "observation_shape": pa.list_(pa.int32()),
        "legal_actions": pa.list_(pa.int16()),
        "action": pa.int16(),
        "move": pa.string(),
        "returns": pa.list_(pa.float32()),
        "reason": pa.string(),
        "value": pa.float32(),
        "visits": pa.list_(pa.int32()),
        "simulations": pa.int32(),
    }
    return pa.schema([(name, types[name]) for name in COLUMNS])


def game_rows(
    game: Game,
    moves: Sequence[str],
    *,
    source: str,
    game_key: str,
    result: Result | None = None,
    searches: Sequence[tuple[float, np.ndarray, int]] | None = None,
) -> list[dict[str, Any]]:
    """The rows of one game: ``moves`` (texts) replayed from the start.

    ``result``: how it ended when the moves alone do not say (a resignation,
    a clock); ``searches``: for each move, the search's value, visits by
    action and simulations. ``ValueError`` (``IllegalMove``) if a move is not legal.
    """
    encoding = encoding_for(game)
    options = json.dumps(game.options, sort_keys=True)
    state = game.initial_state()
    rows: list[dict[str, Any]] = []
    for ply, text in enumerate(moves):
        move = game.parse_move(text)
        obs = encoding.observation(state)
        row = {
            "source": source,
            "game_key": game_key,
            "game": game.id,
            "options": options,
            "ply": ply,
            "to_move": state.to_move,
            "observation": obs.ravel().tolist(),
            "observation_shape": list(obs.shape),
            "legal_actions": encoding.legal_actions(state),
            "action": encoding.action_of(move),
            "move": str(move),
            "value": None,
            "visits": None,
            "simulations": None,
        }
        if searches is not None:
            value, visits, simulations = searches[ply]
            row.update(value=value, visits=visits.tolist(), simulations=simulations)
        rows.append(row)
        state = state.play(move)
    final = state.result if state.result is not None else result
    finals = returns_of(game, final)
    reason = None if final is None else final.reason
    for row in rows:
        row["returns"] = finals
        row["reason"] = reason
    return rows


def self_play(
    game_id: str,
    games: int,
    *,
    simulations: int = 200,
    seed: int = 0,
    explore: int = 8,
    **options: Any,
) -> Iterator[list[dict[str, Any]]]:
    """The rows of ``games`` games of :class:`~sansu.ai.mcts.MCTS` against itself.

    Each move is searched ``simulations`` times; for the first ``explore``
    plies the move is drawn in proportion to its visits (so that games
    differ), then the most visited is played. Reproducible from ``seed``.
    """
    from sansu.ai.adapters import adapter_for
    from sansu.ai.mcts import MCTS

    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, not {games!r}")
    if isinstance(simulations, bool) or not isinstance(simulations, int) or simulations < 1:
        raise ValueError(f"simulations must be a positive integer, not {simulations!r}")
    game = load_game(game_id, **options)
    encoding = encoding_for(game)
    search = MCTS(adapter_for(game))
    rng = random.Random(seed)
    for number in range(games):
        state = game.initial_state()
        moves: list[str] = []
        searches: list[tuple[float, np.ndarray, int]] = []
        while state.result is None:
            stats = search.run(state, simulations=simulations, seed=rng.getrandbits(63))
            visits = np.zeros(encoding.num_actions, dtype=np.int32)
            total = 0.0
            for c in stats.candidates:
                visits[encoding.action_of(c.move)] += c.visits
                total += c.visits * c.reward
            count = int(visits.sum())
            value = 2.0 * total / count - 1.0 if count else 0.0
            if len(moves) < explore and count:
                weights = [c.visits for c in stats.candidates]
                move = rng.choices([c.move for c in stats.candidates], weights)[0]
            else:
                move = max(stats.candidates, key=lambda c: c.visits).move
            searches.append((value, visits, stats.simulations))
            moves.append(str(move))
            state = state.play(move)
        yield game_rows(
            game,
            moves,
            source="selfplay",
            game_key=f"selfplay-{seed}-{number}",
            searches=searches,
        )


def write_parquet(games: Iterable[list[dict[str, Any]]], path: str | Path) -> int:
    """Writes the rows of ``games`` to ``path`` (a new file, or none at all if anything
    fails: written beside it, then renamed). Answers the number of rows."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    target = Path(path)
    if target.is_dir():
        raise ValueError(f"cannot write {target}: it is a directory")
    if not target.parent.is_dir():
        raise ValueError(f"cannot write {target}: {target.parent} is no directory")
    partial = target.with_name(f".{target.name}.partial")
    count = 0
    try:
        with pq.ParquetWriter(partial, schema(), compression="zstd") as writer:
            for rows in games:
                if rows:
                    writer.write_table(pa.Table.from_pylist(rows, schema=schema()))
                    count += len(rows)
        partial.replace(target)
    except OSError as error:
        raise ValueError(f"cannot write {target}: {error.strerror or error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return count


def replay(table: Any) -> Iterator[tuple[dict[str, Any], State]]:
    """Each row of ``table`` (a ``pyarrow.Table`` or a list of row dicts) with the engine
    state it describes, replayed from the game's moves; ``ValueError`` naming the first
    row that is not the engine's position."""
    rows = table.to_pylist() if hasattr(table, "to_pylist") else list(table)
    states: dict[str, State] = {}
    for row in rows:
        key = row["game_key"]
        state = states.get(key)
        if state is None or row["ply"] == 0:
            state = load_game(row["game"], **json.loads(row["options"])).initial_state()
        encoding = encoding_for(state.game)
        obs = encoding.observation(state)
        same = (
            row["ply"] == state.ply
            and row["to_move"] == state.to_move
            and list(obs.shape) == row["observation_shape"]
            and obs.ravel().tolist() == row["observation"]
            and encoding.legal_actions(state) == row["legal_actions"]
            and row["action"] in row["legal_actions"]
            and str(encoding.move_of(state, row["action"])) == row["move"]
        )
        if not same:
            raise ValueError(f"row {key} ply {row['ply']} is not the engine's position")
        yield row, state
        states[key] = state.play(encoding.move_of(state, row["action"]))
