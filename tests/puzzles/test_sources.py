"""Where games come from: a server's database (read through SQLAlchemy Core) and self-play."""

from __future__ import annotations

import sqlalchemy as sa

from sansu.core.registry import load_game
from sansu.puzzles.sources import guided_play, stored_games
from sansu.server.base.schema import Base


def test_finished_games_of_the_game_are_read_from_a_database(tmp_path) -> None:
    url = f"sqlite:///{tmp_path / 'sansu.db'}"
    engine = sa.create_engine(url)
    Base.metadata.create_all(engine)
    games, moves = Base.metadata.tables["games"], Base.metadata.tables["moves"]
    common = {"public_options": {}, "created_at": 0.0, "updated_at": 0.0}
    with engine.begin() as db:
        db.execute(games.insert(), [
            {"id": "g1", "game": "uttt", "options": {}, "status": "finished", **common},
            {"id": "g2", "game": "uttt", "options": {}, "status": "active", **common},
            {"id": "g3", "game": "sansumoku", "options": {}, "status": "finished", **common},
        ])  # fmt: skip
        db.execute(moves.insert(), [
            {"game_id": g, "ply": ply, "text": text, "at": 0.0, "state": ply}
            for g in ("g1", "g2", "g3")
            for ply, text in ((2, "r4c4"), (1, "r5c5"))
        ])  # fmt: skip
    engine.dispose()
    assert list(stored_games(url, "uttt")) == [({}, ["r5c5", "r4c4"])]


def test_guided_sumodoku_self_play_is_legal_and_reproducible() -> None:
    game = load_game("sumodoku")
    first = guided_play(game, 5, lambda s: s.ply >= 40)
    assert first == guided_play(game, 5, lambda s: s.ply >= 40)
    assert len(first) == 40
    game.play_moves(first)  # every move legal


def test_a_stored_game_the_engine_refuses_is_skipped_and_the_rest_mined(tmp_path) -> None:
    import io

    from sansu.puzzles import shipped
    from sansu.puzzles.mine import run

    puzzle = shipped("uttt")[0]
    good = ({}, [*puzzle.moves, *puzzle.solution])
    log = io.StringIO()
    out = tmp_path / "p.json"
    tally = run("uttt", out, games=5, seed=0, stored=[({}, ["r5c5", "r5c5"]), good], log=log)
    assert tally.games == 1 and tally.puzzles >= 1
    assert "game 2: +" in log.getvalue()
