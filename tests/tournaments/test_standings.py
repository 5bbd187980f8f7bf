"""Standings and tie-breaks (§8), on results built by hand; expected columns computed by hand in the comments."""

from __future__ import annotations

from tournaments import (
    Bye,
    Match,
    Player,
    Result,
    elimination_standings,
    round_robin_standings,
    swiss_standings,
)


def games(*rows: tuple[str, str, str | None, int, int]) -> list[tuple[Match, Result]]:
    out = []
    for i, (first, second, winner, fp, sp) in enumerate(rows):
        match = Match(f"M{i}", 1, first, second)
        out.append((match, Result(match.id, winner, fp, sp)))
    return out


def players(*ids: str, ratings: tuple[float, ...] = ()) -> tuple[Player, ...]:
    return tuple(Player(p, ratings[i] if ratings else 1500.0) for i, p in enumerate(ids))


def test_round_robin_head_to_head_before_sonneborn_berger() -> None:
    # C 4 pts; A and B 3 (A beat B, but B's SB is higher); D and E 2 (E beat D, D's SB is higher); F 1
    field = players("A", "B", "C", "D", "E", "F", ratings=(1000, 2000, 1500, 1900, 1100, 1500))
    played = games(
        ("A", "B", "A", 1, 0),
        ("A", "C", "C", 0, 1),
        ("A", "D", "D", 0, 1),
        ("A", "E", "A", 1, 0),
        ("A", "F", "A", 1, 0),
        ("B", "C", "B", 1, 0),
        ("B", "D", "B", 1, 0),
        ("B", "E", "B", 1, 0),
        ("B", "F", "F", 0, 1),
        ("C", "D", "C", 1, 0),
        ("C", "E", "C", 1, 0),
        ("C", "F", "C", 1, 0),
        ("D", "E", "E", 0, 1),
        ("D", "F", "D", 1, 0),
        ("E", "F", "E", 1, 0),
    )
    table = round_robin_standings(field, played)
    assert [r.player for r in table] == ["C", "A", "B", "E", "D", "F"]
    assert [r.place for r in table] == [1, 2, 3, 4, 5, 6]
    row = {r.player: r for r in table}
    # SB A = B 3 + E 2 + F 1 = 6; SB B = C 4 + D 2 + E 2 = 8; SB D = A 3 + F 1 = 4; SB E = D 2 + F 1 = 3
    assert (row["A"].sonneborn_berger, row["B"].sonneborn_berger) == (6, 8)
    assert (row["D"].sonneborn_berger, row["E"].sonneborn_berger) == (4, 3)
    assert (row["A"].head_to_head, row["B"].head_to_head) == (1, 0)
    assert (row["E"].head_to_head, row["D"].head_to_head) == (1, 0)
    assert row["C"].head_to_head == 0  # nobody else on 4
    assert (row["C"].wins, row["C"].losses, row["C"].played) == (4, 1, 5)


def test_round_robin_sonneborn_berger_then_game_points_then_rating() -> None:
    # A, B, C beat each other in a cycle and all beat D and E; D beat E.  A, B, C: 3 points, head-to-head 1 each.
    # SB: A beat B (3) + D (1) + E (0) = 4; B beat C (3) + D + E = 4; C beat A (3) + D + E = 4: all equal.
    field = players("A", "B", "C", "D", "E", ratings=(1500, 1600, 1700, 1500, 1500))
    played = games(
        ("A", "B", "A", 2, 0),
        ("B", "C", "B", 1, 0),
        ("C", "A", "C", 1, 0),
        ("A", "D", "A", 1, 0),
        ("A", "E", "A", 1, 0),
        ("B", "D", "B", 1, 0),
        ("B", "E", "B", 1, 0),
        ("C", "D", "C", 1, 0),
        ("C", "E", "C", 2, 0),
        ("D", "E", "D", 1, 0),
    )
    # game points: A +2 −1 +1 +1 = +3; B −2 +1 +1 +1 = +1; C −1 +1 +1 +2 = +3 → A and C tied, C has the rating;
    # D −1 −1 −1 +1 = −2; E −1 −1 −2 −1 = −5 (D 1 point, E 0)
    table = round_robin_standings(field, played)
    assert [(r.player, r.place) for r in table] == [("C", 1), ("A", 2), ("B", 3), ("D", 4), ("E", 5)]
    row = {r.player: r for r in table}
    assert {p: row[p].sonneborn_berger for p in "ABC"} == {"A": 4, "B": 4, "C": 4}
    assert {p: row[p].head_to_head for p in "ABC"} == {"A": 1, "B": 1, "C": 1}
    assert {p: row[p].game_point_difference for p in "ABCDE"} == {"A": 3, "B": 1, "C": 3, "D": -2, "E": -5}


def test_round_robin_full_tie_shares_the_place_and_draws_count_half() -> None:
    field = players("A", "B", "C")
    played = games(("A", "B", None, 0, 0), ("B", "C", "B", 1, 0), ("C", "A", "A", 0, 1))
    table = round_robin_standings(field, played)
    assert [(r.player, r.place, r.points) for r in table] == [("A", 1, 1.5), ("B", 1, 1.5), ("C", 3, 0.0)]
    assert table[0].draws == 1 and table[0].sonneborn_berger == 0.75  # ½ × B 1.5 + 1 × C 0


def test_swiss_buchholz_cut1() -> None:
    # 5 players, 3 rounds. R1 A–B A, C–D C, E bye; R2 A–C A, E–B E, D bye; R3 A–E draw, B–D B, C bye.
    # points A 2.5, E 2.5, C 2, B 1, D 1.
    field = players("A", "B", "C", "D", "E", ratings=(1500, 1500, 1500, 1500, 1900))
    played = games(
        ("A", "B", "A", 1, 0),
        ("C", "D", "C", 1, 0),
        ("A", "C", "A", 1, 0),
        ("E", "B", "E", 1, 0),
        ("A", "E", None, 0, 0),
        ("B", "D", "B", 1, 0),
    )
    byes = [Bye(1, "E", 1.0), Bye(2, "D", 1.0), Bye(3, "C", 1.0)]
    table = swiss_standings(field, played, byes)
    assert [r.player for r in table] == ["A", "E", "C", "B", "D"]
    row = {r.player: r for r in table}
    # A: opponents B 1, C 2, E 2.5 → Buchholz 5.5, cut 1 → 4.5; SB 1 + 2 + ½·2.5 = 4.25
    assert (row["A"].buchholz, row["A"].buchholz_cut1, row["A"].sonneborn_berger) == (5.5, 4.5, 4.25)
    # E: opponents B 1, A 2.5 → 3.5, cut 2.5; the bye adds nothing
    assert (row["E"].buchholz, row["E"].buchholz_cut1, row["E"].byes) == (3.5, 2.5, 1)
    # B (opponents A 2.5, E 2.5, D 1: cut 5) above D (C 2, B 1: cut 2)
    assert (row["B"].buchholz_cut1, row["D"].buchholz_cut1) == (5.0, 2.0)
    assert [r.place for r in table] == [1, 2, 3, 4, 5]


def test_swiss_full_tie_goes_to_rating_then_shares_the_place() -> None:
    # 6 players, hand-built results (the standings only read results): A beat X, lost to Y; B beat Z, lost to W;
    # X beat W; Z beat Y.
    field = players("A", "B", "W", "X", "Y", "Z", ratings=(1500, 1600, 1500, 1500, 1500, 1500))
    played = games(
        ("A", "X", "A", 1, 0),
        ("A", "Y", "Y", 0, 1),
        ("B", "Z", "B", 1, 0),
        ("B", "W", "W", 0, 1),
        ("X", "W", "X", 1, 0),
        ("Z", "Y", "Z", 1, 0),
    )
    # points: A 1, B 1, W 1, X 1, Y 1, Z 1 — everyone 1.
    # Buchholz (opponents' points): A: X 1 + Y 1 = 2; B: Z 1 + W 1 = 2; W: B 1 + X 1 = 2; X: A + W = 2; Y: A + Z = 2;
    # Z: B + Y = 2. Cut 1 = 1 each. SB = the points of the beaten opponent = 1 each. So rating decides: B first,
    # the other five share place 2.
    table = swiss_standings(field, played)
    assert table[0].player == "B" and table[0].place == 1
    assert [r.place for r in table[1:]] == [2, 2, 2, 2, 2]
    assert all((r.points, r.buchholz, r.buchholz_cut1, r.sonneborn_berger) == (1, 2, 1, 1) for r in table)


def test_swiss_buchholz_then_sonneborn_berger() -> None:
    # A beat C, drew B; B beat D, drew A; C beat D; D nothing. Points A 1.5, B 1.5, C 1, D 0.
    # A: opponents C 1, B 1.5 → Buchholz 2.5, cut 1.5; B: opponents D 0, A 1.5 → 1.5, cut 1.5. Cut 1 ties,
    # Buchholz puts A first.
    field = players("A", "B", "C", "D")
    played = games(("A", "C", "A", 1, 0), ("A", "B", None, 0, 0), ("B", "D", "B", 1, 0), ("C", "D", "C", 1, 0))
    table = swiss_standings(field, played)
    row = {r.player: r for r in table}
    assert (row["A"].buchholz_cut1, row["B"].buchholz_cut1) == (1.5, 1.5)
    assert (row["A"].buchholz, row["B"].buchholz) == (2.5, 1.5)
    assert [r.player for r in table][:2] == ["A", "B"]
    # SB deciding: P beat Q (1 pt), lost to R (2 pts); S beat R, lost to Q: both 1 point, opponents {Q, R} → equal
    # Buchholz and cut; SB P = 1 (Q), SB S = 2 (R) → S first.
    field2 = players("P", "S", "Q", "R", ratings=(1900, 1000, 1500, 1500))
    played2 = games(
        ("P", "Q", "P", 1, 0),
        ("R", "P", "R", 1, 0),
        ("S", "R", "S", 1, 0),
        ("Q", "S", "Q", 1, 0),
        ("R", "Q", "R", 1, 0),
    )
    # points: P 1, S 1, Q 1, R 2
    table2 = swiss_standings(field2, played2)
    row2 = {r.player: r for r in table2}
    assert (row2["P"].buchholz, row2["S"].buchholz) == (3, 3)
    assert (row2["P"].buchholz_cut1, row2["S"].buchholz_cut1) == (2, 2)
    assert (row2["P"].sonneborn_berger, row2["S"].sonneborn_berger) == (1, 2)
    order = [r.player for r in table2]
    assert order.index("S") < order.index("P")


def test_elimination_rows() -> None:
    field = players("A", "B", "C", "D", ratings=(1500, 1600, 1700, 1800))
    table = elimination_standings(field, {"A": 3, "B": 2, "C": 1, "D": 1}, frozenset("BCD"))
    assert [(r.player, r.place, r.reached, r.eliminated) for r in table] == [
        ("A", 1, 3, False),
        ("B", 2, 2, True),
        ("D", 3, 1, True),
        ("C", 4, 1, True),
    ]
    tied = elimination_standings(players("A", "B"), {"A": 1, "B": 1}, frozenset("AB"))
    assert [r.place for r in tied] == [1, 1]
