"""Points given back to the opponents of an account marked as an engine's user.

What each opponent lost in a rated game against the account in the last
:data:`REFUND_DAYS` days comes back to their rating, once per game and opponent
(``rating_history.refunded_at``), so that marking, unmarking and marking again
refunds nothing twice. Records (won, lost) and the history's points stay as they
were: the game was played; only its cost is returned.
"""

from __future__ import annotations

from sqlalchemy import Connection, select, update

from sansu.server.ratings.table import rating_history, ratings

REFUND_DAYS = 30
"""How far back an engine mark gives points back (lichess refunds recent games too)."""


def refund_opponents(
    connection: Connection, user_id: int, *, now: float, days: float = REFUND_DAYS
) -> dict[int, float]:
    """Gives back the points each opponent lost to the account in the last ``days``
    days; the points by opponent's account."""
    h = rating_history
    games = select(h.c.game_id).where(h.c.user_id == user_id, h.c.at >= now - days * 86_400.0)
    lost = connection.execute(
        select(h.c.id, h.c.user_id, h.c.game, h.c.speed, h.c.change)
        .where(
            h.c.game_id.in_(games),
            h.c.user_id != user_id,
            h.c.change < 0,
            h.c.refunded_at.is_(None),
        )
        .order_by(h.c.id)
    ).all()
    refunds: dict[int, float] = {}
    for row in lost:
        connection.execute(
            update(ratings)
            .where(
                ratings.c.user_id == row.user_id,
                ratings.c.game == row.game,
                ratings.c.speed == row.speed,
            )
            .values(rating=ratings.c.rating - row.change)
        )
        connection.execute(update(h).where(h.c.id == row.id).values(refunded_at=now))
        refunds[row.user_id] = refunds.get(row.user_id, 0.0) - row.change
    return refunds
