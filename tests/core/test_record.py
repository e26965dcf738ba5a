"""Game records: JSON that replays exactly, and damaged files that are refused with a reason."""

from __future__ import annotations

import json

import pytest

import sansu
from sansu.core.record import GameRecord


def make_record() -> GameRecord:
    game = sansu.load_game("uttt")
    record = GameRecord.start(game, players=["ann", "bob"], event="club night")
    for move in ["r5c5", "r4c4", "R2C2 "]:
        record.append(game.parse_move(move))
    return record


def test_round_trip_keeps_moves_options_and_metadata(tmp_path) -> None:
    record = make_record()
    path = tmp_path / "g.json"
    record.save(path)
    loaded = GameRecord.read(path)
    assert loaded == record
    assert loaded.moves == ["r5c5", "r4c4", "r2c2"]
    assert loaded.metadata["players"] == ["ann", "bob"]
    assert loaded.metadata["date"].endswith("+00:00")
    data = json.loads(path.read_text())
    assert data["format"] == "sansu-record" and data["version"] == 1
    assert data["result"] is None
    assert loaded.replay().to_dict() == record.replay().to_dict()


def test_the_stored_result_must_match_the_moves() -> None:
    data = make_record().to_dict()
    data["result"] = {"winners": [0], "draw": False, "scores": None, "reason": "resigned"}
    with pytest.raises(ValueError, match="not what the moves give"):
        GameRecord.from_dict(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "chess"}, "unknown game 'chess'"),
        ({"game": 3}, "needs a 'game' id"),
        ({"moves": ["r5c5", "r5c5"]}, "move 2, r5c5: that cell is already taken"),
        ({"moves": "r5c5"}, "'moves' must be a list"),
        ({"moves": [1, 2]}, "'moves' must be a list"),
        ({"options": {"x": 1}}, "unknown option 'x'"),
        ({"format": "pgn"}, "not a sansu game record"),
        ({"version": 9}, "unsupported record version"),
        ({"metadata": []}, "'metadata' must be an object"),
    ],
)
def test_damaged_records_are_refused(change: dict, message: str) -> None:
    data = make_record().to_dict()
    data.update(change)
    with pytest.raises(ValueError) as error:
        GameRecord.from_dict(data)
    assert message in str(error.value)


def test_not_json_and_not_an_object() -> None:
    with pytest.raises(ValueError, match="not valid JSON"):
        GameRecord.from_json("{oops")
    with pytest.raises(ValueError, match="is a JSON object"):
        GameRecord.from_json("[1, 2]")


def test_states_of_a_record() -> None:
    states = make_record().states()
    assert [s.ply for s in states] == [0, 1, 2, 3]
    assert str(states[-1].last_move) == "r2c2"


def test_results() -> None:
    assert sansu.Result.by_scores([10, 12, 12], "x").winners == (1, 2)
    assert sansu.Result.by_scores([5, 5], "x").draw
    teams = sansu.Result.by_scores([30, 20], "x", teams=[(0, 2), (1, 3)])
    assert teams.winners == (0, 2) and teams.scores == (30, 20)
    assert sansu.Result.from_dict(teams.to_dict()) == teams
