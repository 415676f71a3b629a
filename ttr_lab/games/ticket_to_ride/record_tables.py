"""The report's tables read from the game records rather than the results rows: what a row's
counts cannot say. Tunnel claims (tried, paid, declined, the extra cards paid) are read from the
recorded actions, long tickets (kept, completed) from the recorded result's tickets, train
stations (built, tracks borrowed) from the recorded result's player rows; which track is a tunnel
and which ticket is long is the board's data.

``entrant_records`` pairs each record with the entrant at each seat, for every table here and
for the report's tickets-by-length table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, Sequence

from ttr_lab.games.ticket_to_ride.actions import Claim, DeclineTunnel, PayTunnel
from ttr_lab.games.ticket_to_ride.board import TicketDeck
from ttr_lab.games.ticket_to_ride.result import GameResult

if TYPE_CHECKING:
    import pandas as pd

    from ttr_lab.core.digest import ResultsDigest
    from ttr_lab.core.record import GameRecord
    from ttr_lab.core.results import StoredRecord

    from ttr_lab.games.ticket_to_ride.game import TicketToRide


def entrant_records(frame: "pd.DataFrame | ResultsDigest",
                    records: Sequence["StoredRecord"]) -> Iterator[tuple["GameRecord", Sequence[str]]]:
    """Each record of a game in ``frame`` with the entrant at each seat. A record names its
    entrants; older ones are matched by seed and the strategy in each seat."""
    import pandas as pd

    if not records:
        return
    seats: dict[tuple, list[str]] = {}  # for records that do not name their entrants (older folders)
    if not isinstance(frame, pd.DataFrame):  # a digest: its folder read again, a chunk at a time
        named = {s.game_id for s in records if s.game_id is not None and s.entrants is not None}
        if len(named) == len(records):  # every record names its game and entrants: only their ids are looked up
            games = {i for c in frame.chunks(["game_id"]) for i in pd.unique(c["game_id"][c["game_id"].isin(named)])}
        else:
            frame = pd.concat(list(frame.chunks(["game_id", "seat", "deal_seed", "strategy", "entrant"])), ignore_index=True)
    if isinstance(frame, pd.DataFrame):
        games = set(frame["game_id"])
        for _, g in frame.sort_values("seat").groupby("game_id", sort=False):
            seats.setdefault((int(g["deal_seed"].iloc[0]), tuple(g["strategy"])), list(g["entrant"]))
    for stored in records:
        if stored.game_id is not None and stored.game_id not in games:
            continue
        entrants = stored.entrants or seats.get((stored.record.seed, stored.record.strategies))
        if entrants is not None:
            yield stored.record, entrants


def tunnel_claims(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest",
                  records: Sequence["StoredRecord"]) -> "pd.DataFrame":
    """Per entrant, over the recorded games: tunnel claims tried, paid (the track taken, with
    or without extra cards) and declined, the extra cards paid in all and per tunnel taken.
    Empty on a board without tunnels or without records."""
    import pandas as pd

    columns = ["entrant", "games", "tried", "paid", "declined", "extra_cards", "extra_per_paid"]
    tunnels = {t.id for t in game.board.tracks if t.tunnel}
    counts: dict[str, list[int]] = {}
    if tunnels:
        for record, entrants in entrant_records(frame, records):
            for entrant in set(entrants):
                counts.setdefault(entrant, [0, 0, 0, 0])[0] += 1
            for seat, text in record.actions:
                # Only the texts that can be tunnel actions are parsed: a claim, a payment, a decline.
                if not text.startswith(("claim", "pay", "decline")):
                    continue
                action = game.parse_action(text)
                row = counts[entrants[seat]]
                if isinstance(action, Claim) and action.track in tunnels:
                    row[1] += 1
                elif isinstance(action, DeclineTunnel):
                    row[2] += 1
                elif isinstance(action, PayTunnel):
                    row[3] += action.cards + action.locomotives
    rows = [(e, g, tried, tried - declined, declined, extra, extra / (tried - declined) if tried > declined else float("nan"))
            for e, (g, tried, declined, extra) in sorted(counts.items())]
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["labels"] = {"games": "games recorded", "tried": "tunnels tried", "paid": "tunnels taken",
                             "declined": "declined", "extra_cards": "extra cards paid",
                             "extra_per_paid": "extra cards per tunnel taken"}
    return table


def long_tickets(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest",
                 records: Sequence["StoredRecord"]) -> "pd.DataFrame":
    """Per entrant, over the recorded games: long tickets kept (held at the end: a long ticket
    cannot be given back), completed, and the share completed with its 95% Wilson interval. Empty on a board without long
    tickets or without records."""
    import pandas as pd

    from ttr_lab.core.intervals import wilson

    columns = ["entrant", "games", "kept", "completed", "completion", "completion_low", "completion_high"]
    long = {t.id for t in game.board.tickets if t.deck == TicketDeck.LONG}
    counts: dict[str, list[int]] = {}
    if long:
        for record, entrants in entrant_records(frame, records):
            for entrant in set(entrants):
                counts.setdefault(entrant, [0, 0, 0])[0] += 1
            for player in GameResult.from_dict(record.result).players:
                row = counts[entrants[player.player]]
                for ticket in player.tickets:
                    if ticket.ticket in long:
                        row[1] += 1
                        row[2] += ticket.completed
    rows = [(e, g, kept, done, done / kept if kept else float("nan"), *wilson(done, kept))
            for e, (g, kept, done) in sorted(counts.items())]
    table = pd.DataFrame(rows, columns=columns)
    table.attrs["labels"] = {"games": "games recorded", "kept": "long tickets kept", "completed": "completed",
                             "completion": "share completed"}
    return table


def stations(frame: "pd.DataFrame | ResultsDigest", records: Sequence["StoredRecord"]) -> "pd.DataFrame":
    """Per entrant, over the recorded games whose results hold train stations: stations built
    per game, and the tracks they borrowed (another player's track a station lent to its
    tickets at the end) per game and per station. Read from the stored result's player rows
    (``stations_built``, ``station_tracks``: per station its city and the track borrowed, -1 for
    none), so a record without stations adds nothing. Empty when no record has them."""
    import pandas as pd

    columns = ["entrant", "games", "built_per_game", "borrowed_per_game", "borrowed_per_station"]
    counts: dict[str, list[int]] = {}
    for record, entrants in entrant_records(frame, records):
        rows = record.result.get("players", [])
        if not any(r.get("stations_built") is not None for r in rows):
            continue
        for entrant in set(entrants):
            counts.setdefault(entrant, [0, 0, 0])[0] += 1
        for r in rows:
            row = counts[entrants[int(r["player"])]]
            row[1] += int(r.get("stations_built") or 0)
            row[2] += sum(1 for _, track in r.get("station_tracks") or () if int(track) >= 0)
    table = pd.DataFrame([(e, g, built / g, borrowed / g, borrowed / built if built else float("nan"))
                          for e, (g, built, borrowed) in sorted(counts.items())], columns=columns)
    table.attrs["labels"] = {"games": "games recorded", "built_per_game": "stations built per game",
                             "borrowed_per_game": "tracks borrowed per game",
                             "borrowed_per_station": "tracks borrowed per station"}
    return table


def record_sections(game: "TicketToRide", frame: "pd.DataFrame | ResultsDigest",
                    records: Sequence["StoredRecord"]) -> list[tuple[str, str, "pd.DataFrame"]]:
    """The report's sections from these tables, each only where it has rows."""
    out = []
    tunnels = tunnel_claims(game, frame, records)
    if len(tunnels):
        out.append(("Tunnels", "Per entrant, over the recorded games: tunnel claims tried, those taken (paying any "
                    "extra cards the turned-over cards asked) and those declined, and the extra cards paid. From the "
                    "game records.", tunnels))
    long = long_tickets(game, frame, records)
    if len(long):
        out.append(("Long tickets", "Per entrant, over the recorded games: long tickets kept and the share completed. "
                    "From the game records.", long))
    built = stations(frame, records)
    if len(built):
        out.append(("Stations", "Per entrant, over the recorded games with train stations: stations built, and the "
                    "tracks of other players they borrowed for the entrant's tickets in the final scoring. From the "
                    "game records.", built))
    return out
