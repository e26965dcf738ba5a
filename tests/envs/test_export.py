"""``sansu export``: a server's stored games and self-play, as Parquet rows that replay
through the engine; bad input is one line, exit 2, and no file."""

from __future__ import annotations

import hashlib
import random
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
import sqlalchemy as sa

import sansu
from sansu.cli.export import read_only_engine
from sansu.cli.main import main
from sansu.envs.dataset import COLUMNS, replay
from sansu.server.base.schema import GameRow, MoveRow
from sansu.server.base.store import make_engine, migrate
from tests.server.conftest import postgres_server, postgres_url  # noqa: F401  (fixtures)

SECRET_HASH = hashlib.sha256(b"secret").hexdigest()
GAMES = [
    ("g-uttt", "uttt", {}, {}),
    ("g-sansumoku", "sansumoku", {}, {}),
    ("g-35", "thirtyfive", {"rows": 4, "cols": 5}, {}),
    ("g-resigned", "uttt", {}, {"resign_after": 9}),
    ("g-private", "uttt", {}, {"private": True}),
    ("g-hidden", "sansumoku", {}, {"watchable": False}),
    ("g-active", "uttt", {}, {"status": "active", "resign_after": 5}),
]


def random_moves(game, seed, stop=None):
    state, rng, moves = game.initial_state(), random.Random(seed), []
    while state.result is None and (stop is None or len(moves) < stop):
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return state, moves


def make_server_db(url: Path | str) -> dict[str, list[str]]:
    """A migrated server database holding the games of :data:`GAMES`; their moves by id."""
    engine = make_engine(str(url))
    migrate(engine)
    played = {}
    now = time.time()
    with engine.begin() as c:
        for seed, (key, game_id, options, how) in enumerate(GAMES):
            game = sansu.load_game(game_id, **options)
            state, moves = random_moves(game, seed, how.get("resign_after"))
            result = state.result
            termination = "rules"
            if result is None and how.get("status") != "active":
                result, termination = (
                    sansu.Result.win(1 - state.to_move, reason="resign"),
                    "resignation",
                )
            c.execute(
                sa.insert(GameRow.__table__).values(
                    id=key, game=game_id, options=game.options, public_options=game.options,
                    status=how.get("status", "finished"), casual=True, created_at=now,
                    updated_at=now, finished_at=now + seed, version=len(moves), seq=0,
                    ply=len(moves), to_move=state.to_move,
                    result=None if how.get("status") else result.to_dict(),
                    termination=termination, private=how.get("private", False),
                    watchable=how.get("watchable", True), rematch_offers=[], meta={},
                    join_secret_hash=SECRET_HASH if how.get("private") else None,
                )
            )  # fmt: skip
            for ply, text in enumerate(moves, 1):
                c.execute(
                    sa.insert(MoveRow.__table__).values(
                        game_id=key, ply=ply, text=text, seat=None, at=now, state=ply
                    )
                )
            played[key] = moves
    engine.dispose()
    return played


def export(capsys, *args):
    code = main(["export", *args])
    return code, capsys.readouterr().err


@pytest.fixture(params=["sqlite", "postgresql"])
def server_db(request, tmp_path) -> str:
    """The URL of a server database: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'server.db'}"
    return request.getfixturevalue("postgres_url")


def test_server_games_round_trip_through_parquet_and_the_engine(tmp_path, capsys, server_db):
    played = make_server_db(server_db)
    file = Path(server_db.removeprefix("sqlite:///"))
    before = file.read_bytes() if server_db.startswith("sqlite") else None
    out = tmp_path / "games.parquet"
    code, err = export(capsys, "server", "--db", server_db, str(out))
    assert code == 0, err
    if before is not None:
        assert file.read_bytes() == before  # read only
    with read_only_engine(server_db).connect() as c, pytest.raises(sa.exc.DBAPIError):
        c.execute(sa.text("DELETE FROM moves"))  # the export's connections cannot write
    table = pq.read_table(out)
    assert table.column_names == list(COLUMNS)
    keys = set(table.column("game_key").to_pylist())
    # Finished public games only: never a private one, a closed one or one in play.
    assert keys == {"g-uttt", "g-sansumoku", "g-35", "g-resigned"}
    assert table.num_rows == sum(len(played[k]) for k in keys)
    replayed = 0
    for row, state in replay(table):
        assert row["move"] == played[row["game_key"]][row["ply"]]
        assert row["source"] == "server" and row["value"] is None and row["visits"] is None
        assert str(state.play(state.game.parse_move(row["move"])).last_move) == row["move"]
        replayed += 1
    assert replayed == table.num_rows
    resigned = [r for r in table.to_pylist() if r["game_key"] == "g-resigned"]
    assert resigned[0]["reason"] == "resignation" and sorted(resigned[0]["returns"]) == [-1, 1]
    only = tmp_path / "only35.parquet"
    assert export(capsys, "server", "--db", server_db, "--game", "35", str(only))[0] == 0
    assert set(pq.read_table(only).column("game").to_pylist()) == {"thirtyfive"}


def test_a_row_that_is_not_the_engine_position_is_caught(tmp_path, capsys):
    out = tmp_path / "sp.parquet"
    assert (
        export(capsys, "selfplay", "uttt", str(out), "--games", "1", "--simulations", "8")[0] == 0
    )
    rows = pq.read_table(out).to_pylist()
    rows[3]["observation"] = [0] * len(rows[3]["observation"])
    with pytest.raises(ValueError, match="ply 3 is not the engine's position"):
        list(replay(rows))


@pytest.mark.parametrize(
    ("game", "options"), [("sansumoku", []), ("thirtyfive", ["-o", "rows=4", "-o", "cols=4"])]
)
def test_self_play_keeps_the_search_values_and_visits(tmp_path, capsys, game, options):
    out = tmp_path / "sp.parquet"
    args = [
        "selfplay",
        game,
        *options,
        str(out),
        "--games",
        "2",
        "--simulations",
        "16",
        "--seed",
        "3",
    ]
    code, err = export(capsys, *args)
    assert code == 0, err
    table = pq.read_table(out)
    rows = [row for row, _ in replay(table)]
    assert len(rows) == table.num_rows and len({r["game_key"] for r in rows}) == 2
    for row in rows:
        assert -1.0 <= row["value"] <= 1.0
        visited = {a for a, v in enumerate(row["visits"]) if v}
        assert visited and visited <= set(row["legal_actions"])
        assert sum(row["visits"]) <= row["simulations"]
    for key in {r["game_key"] for r in rows}:  # a game's rows share its outcome
        assert len({tuple(r["returns"]) for r in rows if r["game_key"] == key}) == 1
    again = tmp_path / "again.parquet"
    assert export(capsys, *[str(again) if a == str(out) else a for a in args])[0] == 0
    assert pq.read_table(again).equals(table)  # reproducible from the seed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["selfplay", "chess", "{out}"], "unknown game"),
        (["selfplay", "uttt", "{out}", "--games", "0"], "must be positive"),
        (["server", "--db", "{tmp}/missing.db", "{out}"], "no SQLite database"),
        (["server", "--db", "mysql://u@h/db", "{out}"], "SQLite or PostgreSQL"),
        (["server", "--db", "::not a url::", "{out}"], "no SQLite database"),
        (["server", "--db", "postgresql://nobody@127.0.0.1:1/x", "{out}"], "OperationalError"),
        (["server", "--db", "{tmp}/not-a-db.db", "{out}"], "export: "),
        (["server", "--db", "{db}", "{tmp}/file.txt/out.parquet"], "cannot write"),
        (["selfplay", "uttt", "{tmp}", "--games", "1"], "cannot write"),
        (["server", "--db", "{db}", "--game", "go", "{out}"], "unknown game"),
    ],
)
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, args, message):
    db = tmp_path / "server.db"
    make_server_db(db)
    (tmp_path / "not-a-db.db").write_text("hello")
    (tmp_path / "file.txt").write_text("x")
    before = sorted(p.name for p in tmp_path.iterdir())
    out = tmp_path / "out.parquet"
    filled = [a.format(out=out, tmp=tmp_path, db=db) for a in args]
    code, err = export(capsys, *filled)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert "Traceback" not in err


def test_without_the_server_extra_export_server_says_what_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "sqlalchemy", None)  # as if not installed
    code, err = export(
        capsys, "server", "--db", str(tmp_path / "x.db"), str(tmp_path / "o.parquet")
    )
    assert code == 2 and 'pip install "sansu[server]"' in err
    assert list(tmp_path.iterdir()) == []
