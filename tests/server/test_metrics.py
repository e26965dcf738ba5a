"""``/metrics``: what it counts after real play, and who may read it (nobody on the public
port by default). The Grafana dashboard names only metrics that a scrape holds."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from sansu.server.base.ratelimit import RateLimits
from tests.server.conftest import ROOT, Api, make_client

DASHBOARD = ROOT / "deploy" / "grafana" / "sansu.json"
PRIVATE_PORT = 9464


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Each sample of a scrape by its name and labels."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


def value(text: str, name: str, **labels: str) -> float:
    return samples(text).get((name, tuple(sorted(labels.items()))), 0.0)


def scrape(client: TestClient) -> str:
    r = client.get(f"http://testserver:{PRIVATE_PORT}/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    return r.text


def test_metrics_are_404_on_the_public_port_by_default(db_path: str) -> None:
    with make_client(db_path) as client:
        r = client.get("/metrics")
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "not_found"
        assert "sansu_" not in r.text


def test_the_metrics_port_serves_metrics_and_nothing_else(db_path: str) -> None:
    with make_client(db_path, metrics_port=PRIVATE_PORT) as client:
        assert "sansu_moves_total" in scrape(client)
        assert client.get(f"http://testserver:{PRIVATE_PORT}/api/health").status_code == 404
        assert client.get(f"http://testserver:{PRIVATE_PORT}/").status_code == 404
        assert client.post(f"http://testserver:{PRIVATE_PORT}/metrics").status_code == 405
        assert client.get("/metrics").status_code == 404  # the public port still hides it
        assert client.get("/api/health").status_code == 200


def test_an_allow_list_opens_the_public_port_to_its_addresses_only(db_path: str) -> None:
    app = make_client(db_path, metrics_allow="10.0.0.0/8, ::1").app
    with TestClient(app, client=("10.1.2.3", 5000)) as inside:
        r = inside.get("/metrics")
        assert r.status_code == 200 and "sansu_db_commit_seconds_bucket" in r.text
    for outside in (("192.168.1.9", 5000), ("testclient", 5000)):
        with TestClient(app, client=outside) as client:
            assert client.get("/metrics").status_code == 404


def test_a_bad_allow_list_is_refused_by_name() -> None:
    from sansu.server.base.metrics import allow_list

    with pytest.raises(ValueError, match=r"'10\.0\.0\.300'"):
        allow_list("127.0.0.1,10.0.0.300")


def test_play_is_counted_moves_latency_commits_sockets_and_games(db_path: str) -> None:
    with make_client(db_path, metrics_port=PRIVATE_PORT) as client:
        api = Api(client)
        before = scrape(client)
        assert value(before, "sansu_moves_total") == 0
        gid, tokens = api.two_players("uttt")
        protocols = ["sansu", f"token.{tokens[0]}"]
        with client.websocket_connect(f"/api/games/{gid}/ws", subprotocols=protocols) as ws:
            hello = ws.receive_json()
            move = hello["view"]["legal_moves"][0]
            ws.send_json({"type": "move", "move": move, "state": hello["state"], "id": 1})
            while (answer := ws.receive_json())["type"] != "ack":
                pass
            ws.send_json({"type": "ping", "id": 2})  # answered, but changes nothing
            while ws.receive_json()["type"] != "pong":
                pass
            during = scrape(client)
        after = scrape(client)
    assert answer["id"] == 1
    assert value(during, "sansu_open_sockets") == 1
    assert value(after, "sansu_open_sockets") == 0
    assert value(during, "sansu_games_in_memory") >= 1
    assert value(during, "sansu_moves_total") == 1
    assert value(during, "sansu_move_latency_seconds_count") == 1
    assert 0 < value(during, "sansu_move_latency_seconds_sum") < 5
    assert value(during, "sansu_db_commit_seconds_count") > value(
        before, "sansu_db_commit_seconds_count"
    )
    assert value(during, "sansu_computer_queue_length", kind="move") == 0


def test_the_event_loop_lag_is_observed_every_50_ms(db_path: str) -> None:
    with make_client(db_path, metrics_port=PRIVATE_PORT) as client:
        seen = 0.0
        for _ in range(1000):  # each scrape gives the loop a turn; 2 lags take 100 ms
            seen = value(scrape(client), "sansu_event_loop_lag_seconds_count")
            if seen >= 2:
                break
    assert seen >= 2


def test_a_computer_move_is_counted_in_the_queue_wait(db_path: str) -> None:
    with make_client(db_path, metrics_port=PRIVATE_PORT) as client:
        api = Api(client)
        created = api.create("uttt", seats=[{"kind": "human"}, {"kind": "computer"}])
        game = created["game"]
        legal = game["view"]["legal_moves"]
        r = api.move(created["id"], created["token"], legal[0], game["state"])
        assert r.status_code == 200, r.text
        with client.websocket_connect(f"/api/games/{created['id']}/ws") as ws:
            while ws.receive_json().get("view", {}).get("to_move") != 0:
                pass
        text = scrape(client)
    assert value(text, "sansu_computer_queue_wait_seconds_count", kind="move") >= 1


def test_failed_log_ins_and_rate_limit_refusals_are_counted(db_path: str) -> None:
    limits = RateLimits(requests="5/minute", creates=None, accounts=None, imports=None)
    with make_client(db_path, metrics_port=PRIVATE_PORT, rate_limits=limits) as client:
        r = client.post("/api/account/login", json={"name": "nobody", "password": "wrong one!"})
        assert r.status_code == 401
        codes = [client.get("/api/health").status_code for _ in range(6)]
        assert 429 in codes
        text = scrape(client)
    assert value(text, "sansu_login_failures_total", reason="bad_credentials") == 1
    assert value(text, "sansu_rate_limit_refusals_total", code="rate_limited") == codes.count(429)


def test_a_held_back_log_in_is_a_failure_too(db_path: str) -> None:
    with make_client(db_path, metrics_port=PRIVATE_PORT) as client:
        for _ in range(6):
            client.post("/api/account/login", json={"name": "someone", "password": "guess!!!"})
        text = scrape(client)
    assert value(text, "sansu_login_failures_total", reason="bad_credentials") == 5
    assert value(text, "sansu_login_failures_total", reason="too_many_attempts") == 1


def dashboard_metrics() -> set[str]:
    """The metric names in every expression of the dashboard's panels."""
    board = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    exprs = [target["expr"] for panel in board["panels"] for target in panel.get("targets", ())]
    assert exprs, "the dashboard has no queries"
    functions = {"rate", "sum", "histogram_quantile", "irate", "increase", "max"}
    names = set()
    for expr in exprs:
        # drop label matchers, ranges and groupings
        bare = re.sub(r"\{[^}]*\}|\[[^\]]*\]|\bby \([^)]*\)", "", expr)
        names |= {w for w in re.findall(r"[a-zA-Z_:][a-zA-Z0-9_:]*", bare) if w not in functions}
    return names


def test_every_metric_of_the_dashboard_is_in_a_scrape(db_path: str) -> None:
    with make_client(db_path, metrics_port=PRIVATE_PORT) as client:
        Api(client).two_players("uttt")
        client.post("/api/account/login", json={"name": "nobody", "password": "wrong one!"})
        scraped = {name for name, _labels in samples(scrape(client))}
    named = dashboard_metrics()
    assert {"sansu_moves_total", "sansu_move_latency_seconds_bucket"} <= named
    assert named <= scraped, sorted(named - scraped)
