"""PrefLib ordinal files (soc, soi, toc, toi) <-> Leaderboard: reading, writing, round trips, errors.

The fixtures in tests/data/preflib are small hand-written elections in the 2022+ PrefLib
format, one per data type, with alternative names holding spaces, commas and colons.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import consensus as cs
from consensus.errors import (
    DegenerateTaskWarning,
    EmptySystemError,
    InvalidOptionError,
    InvalidWeightError,
    LeaderboardError,
    UnknownSystemError,
)
from consensus.formats.errors import FormatError
from consensus.formats.preflib import (
    KINDS,
    from_orders,
    order_kind,
    read_preflib,
    to_orders,
    write_preflib,
)

pytestmark = pytest.mark.filterwarnings("ignore::consensus.errors.DegenerateTaskWarning")

DATA = Path(__file__).resolve().parent / "data" / "preflib"
FIXTURES = {"soc": "films.soc", "soi": "club.soi", "toc": "debian.toc", "toi": "lunch.toi"}


def _election(path: Path) -> tuple[str, list[str], Counter]:
    """An independent reading of a PrefLib file: (data type, alternative names, multiset of orders).

    Orders are tuples of frozensets of names, so that the order of tied alternatives inside
    braces and the order of the lines do not matter.
    """
    names, orders, kind = {}, Counter(), None
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"# ALTERNATIVE NAME (\d+): (.*)", line):
            names[int(m.group(1))] = m.group(2)
        elif line.startswith("# DATA TYPE:"):
            kind = line.split(":", 1)[1].strip()
        elif line and not line.startswith("#"):
            count, order = line.split(":")
            tiers = re.findall(r"\{[^}]*\}|\d+", order.replace(" ", ""))
            key = tuple(frozenset(names[int(a)] for a in t.strip("{}").split(",")) for t in tiers)
            orders[key] += int(count)
    return kind, [names[k] for k in sorted(names)], orders


# ---------------------------------------------------------------------- reading
def test_soc_alternatives_are_systems_and_orders_are_tasks_weighted_by_count():
    lb = read_preflib(DATA / "films.soc")
    assert lb.systems == ("The Wedding Planner", "Lost in Translation", "Crouching Tiger, Hidden Dragon", "The Exorcist")
    assert lb.tasks == ("order 1", "order 2", "order 3", "order 4", "order 5")
    assert lb.weights.tolist() == [5.0, 4.0, 3.0, 2.0, 1.0]
    # "5: 2,3,1,4": score = n - position, the Borda score of a strict complete order
    assert lb.scores["order 1"].tolist() == [1.0, 3.0, 2.0, 0.0]
    assert not lb.has_missing and not lb.lower_is_better


def test_soi_unranked_alternatives_are_missing_scores():
    lb = read_preflib(DATA / "club.soi")
    assert lb.scores["order 1"].tolist()[:2] == [4.0, 3.0]  # "6: 1,2"
    assert lb.scores["order 1"].isna().tolist() == [False, False, True, True, True]
    assert lb.scores["order 3"].notna().sum() == 1  # "4: 3"
    assert lb.systems[4] == "O'Brien, Siobhan"


def test_toc_ties_get_equal_scores_at_the_same_position():
    lb = read_preflib(DATA / "debian.toc")
    # "5: 3,{1,2,4}": Bdale first (4 - 1), the three others tied at position 2
    assert lb.scores["order 3"].tolist() == [2.0, 2.0, 3.0, 2.0]
    # "3: {1,2},3,4": two tied first, then position 3 (competition ranking 1-1-3-4)
    assert lb.scores["order 5"].tolist() == [3.0, 3.0, 1.0, 0.0]


def test_toi_has_ties_and_missing_scores_and_names_with_colons():
    lb = read_preflib(DATA / "lunch.toi")
    assert lb.systems[-1] == "Café: soups, salads"
    assert lb.scores["order 1"].tolist()[:4] == [3.0, 4.0, 3.0, 1.0]  # "4: 2,{1,3},4"
    assert np.isnan(lb.scores.loc["Café: soups, salads", "order 1"])
    assert lb.weights.sum() == 14


@pytest.mark.parametrize("kind", list(FIXTURES))
def test_header_counts_match_the_leaderboard(kind):
    path = DATA / FIXTURES[kind]
    lb = read_preflib(path)
    text = path.read_text(encoding="utf-8")
    assert int(re.search(r"# NUMBER VOTERS: (\d+)", text).group(1)) == lb.weights.sum()
    assert int(re.search(r"# NUMBER UNIQUE ORDERS: (\d+)", text).group(1)) == lb.n_tasks
    assert order_kind(to_orders(lb), lb.n_systems) == kind


# ---------------------------------------------------------------------- round trips
@pytest.mark.parametrize("kind", list(FIXTURES))
def test_file_to_leaderboard_to_file_is_the_same_election(kind, tmp_path):
    source = DATA / FIXTURES[kind]
    written = write_preflib(read_preflib(source), tmp_path / "copy")
    assert written.name == f"copy.{kind}"
    assert _election(written) == _election(source)
    # lines come out by count, then first appearance: the fixtures' own order
    ours = [line for line in written.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    theirs = [line for line in source.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert ours == theirs


@pytest.mark.parametrize("kind", list(FIXTURES))
def test_reading_the_written_file_gives_the_same_leaderboard(kind, tmp_path):
    lb = read_preflib(DATA / FIXTURES[kind])
    assert read_preflib(write_preflib(lb, tmp_path / f"x.{kind}")) == lb


def test_written_header_follows_the_specification(tmp_path):
    out = write_preflib(read_preflib(DATA / "club.soi"), tmp_path / "club.soi", title="Chess club")
    head = [line.split(":")[0] for line in out.read_text(encoding="utf-8").splitlines()[:12]]
    assert head == [
        "# FILE NAME", "# TITLE", "# DESCRIPTION", "# DATA TYPE", "# MODIFICATION TYPE", "# RELATES TO",
        "# RELATED FILES", "# PUBLICATION DATE", "# MODIFICATION DATE", "# NUMBER ALTERNATIVES",
        "# NUMBER VOTERS", "# NUMBER UNIQUE ORDERS",
    ]
    text = out.read_text(encoding="utf-8")
    assert "# FILE NAME: club.soi\n# TITLE: Chess club\n" in text
    assert "# ALTERNATIVE NAME 1: Smith, Anna\n" in text


@pytest.mark.prefvoting  # preflibtools comes with the prefvoting extra: runs in that CI leg
def test_preflibtools_reads_what_we_write_and_we_read_what_it_writes(tmp_path):
    instances = pytest.importorskip("preflibtools.instances")
    for kind, name in FIXTURES.items():
        theirs = instances.OrdinalInstance(str(DATA / name))
        ours = instances.OrdinalInstance(str(write_preflib(read_preflib(DATA / name), tmp_path / name)))
        assert ours.vote_map() == theirs.vote_map() and ours.alternatives_name == theirs.alternatives_name
        theirs.write(str(tmp_path / f"pt-{name}"))
        assert read_preflib(tmp_path / f"pt-{name}") == read_preflib(DATA / name)


# ---------------------------------------------------------------------- writing score tables
def _board(columns: dict, **options) -> cs.Leaderboard:
    return cs.Leaderboard.from_frame(pd.DataFrame(columns, index=["a", "b", "c"]), **options)


def test_scores_become_orders_respecting_lower_is_better(tmp_path):
    lb = _board({"acc": [0.9, 0.7, 0.8], "latency": [30.0, 10.0, 20.0]}, lower_is_better=["latency"])
    out = write_preflib(lb, tmp_path / "board")
    assert out.suffix == ".soc"
    assert out.read_text(encoding="utf-8").splitlines()[-2:] == ["1: 1,3,2", "1: 2,3,1"]


def test_identical_orders_merge_and_lines_sort_by_count_then_first_task(tmp_path):
    lb = _board({"t1": [1, 2, 3], "t2": [3, 2, 1], "t3": [9, 8, 7], "t4": [0.1, 0.2, 0.3]}, weights={"t1": 2})
    lines = write_preflib(lb, tmp_path / "x").read_text(encoding="utf-8").splitlines()
    assert lines[-2:] == ["3: 3,2,1", "2: 1,2,3"]
    assert "# NUMBER VOTERS: 5" in lines and "# NUMBER UNIQUE ORDERS: 2" in lines


@pytest.mark.parametrize(
    ("columns", "kind"),
    [
        ({"t": [3.0, 2.0, 1.0]}, "soc"),
        ({"t": [3.0, np.nan, 1.0], "u": [1.0, 2.0, 3.0]}, "soi"),
        ({"t": [3.0, 3.0, 1.0]}, "toc"),
        ({"t": [3.0, 3.0, np.nan], "u": [1.0, 2.0, 3.0]}, "toi"),
    ],
)
def test_the_kind_is_the_most_restrictive_that_holds_the_data(columns, kind, tmp_path):
    out = write_preflib(_board(columns), tmp_path / "x")
    assert out.suffix == f".{kind}" and f"# DATA TYPE: {kind}\n" in out.read_text(encoding="utf-8")


def test_a_more_general_kind_can_be_asked_for(tmp_path):
    out = write_preflib(read_preflib(DATA / "films.soc"), tmp_path / "films", kind="toi")
    assert out.name == "films.toi" and _election(out)[1:] == _election(DATA / "films.soc")[1:]


def test_ties_cannot_be_written_as_strict_orders(tmp_path):
    lb = _board({"qa": [0.9, 0.7, 0.8], "nli": [0.5, 0.5, 0.4]})
    with pytest.raises(InvalidOptionError, match=r"the file name 'x.soc' asks for soc .* task 'nli' ties 'a', 'b'"):
        write_preflib(lb, tmp_path / "x.soc")
    with pytest.raises(InvalidOptionError, match=r"kind='soi' asks for soi .* write it as toi"):
        write_preflib(lb, tmp_path / "x", kind="soi")
    assert not list(tmp_path.iterdir())


def test_missing_scores_cannot_be_written_as_complete_orders(tmp_path):
    lb = _board({"qa": [0.9, np.nan, 0.8], "nli": [0.5, 0.6, 0.4]})
    with pytest.raises(InvalidOptionError, match=r"task 'qa' has no score for 'b'; write it as soi"):
        write_preflib(lb, tmp_path / "x", kind="soc")


def test_kind_and_extension_must_agree(tmp_path):
    lb = _board({"t": [3.0, 2.0, 1.0]})
    with pytest.raises(InvalidOptionError, match=r"kind='toc' but the file name 'x.soc' says 'soc'"):
        write_preflib(lb, tmp_path / "x.soc", kind="toc")
    with pytest.raises(InvalidOptionError, match=r"kind must be one of soc, soi, toc, toi"):
        write_preflib(lb, tmp_path / "x", kind="cat")


@pytest.mark.parametrize(("weight", "fix"), [(0.5, "rescale the weights"), (0.0, "drop it"), (2.5, "rescale")])
def test_weights_must_be_positive_integers_to_be_counts(weight, fix, tmp_path):
    lb = _board({"qa": [0.9, 0.7, 0.8], "nli": [0.5, 0.6, 0.4]}, weights={"qa": weight})
    with pytest.raises(InvalidWeightError, match=rf"task 'qa' has weight {weight:g}; .*{fix}") as info:
        write_preflib(lb, tmp_path / "x")
    assert info.value.task == "qa"


def test_names_that_a_preflib_line_cannot_hold_are_refused(tmp_path):
    frame = pd.DataFrame({"t": [1.0, 2.0]}, index=["a\nb", "c"])
    with pytest.raises(LeaderboardError, match=r"system 'a\\nb' cannot be a PrefLib alternative name"):
        write_preflib(cs.Leaderboard(frame), tmp_path / "x")


# ---------------------------------------------------------------------- malformed files
HEADER = "# DATA TYPE: {kind}\n# NUMBER ALTERNATIVES: 3\n# ALTERNATIVE NAME 1: a\n# ALTERNATIVE NAME 2: b\n# ALTERNATIVE NAME 3: c\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        (HEADER + "2: 1,2,3\nx: 3,2,1\n", 7, r"the count 'x' is not a positive whole number"),
        (HEADER + "0: 1,2,3\n", 6, r"the count '0'"),
        (HEADER + "2 1,2,3\n", 6, r"expected 'count: order'"),
        (HEADER + "2: 1;2;3\n", 6, r"cannot read the order '1;2;3'"),
        (HEADER + "2: 1,{2,3\n", 6, r"cannot read the order"),
        (HEADER + "2:\n", 6, r"the order is empty"),
        (HEADER + "2: 1,4,3\n", 6, r"alternative 4 is not one of 1..3"),
        (HEADER + "2: 1,2,1\n", 6, r"alternative\(s\) 1 appear more than once"),
        (HEADER + "2: 1,{2,3}\n", 6, r"alternatives 2, 3 are tied, but the file is soc .*declare '# DATA TYPE: toc'"),
        (HEADER + "2: 1,2\n", 6, r"alternative\(s\) 3 are not ranked, but the file is soc .*'# DATA TYPE: soi'"),
        (HEADER + "2: 1,2,3\n# TITLE: late\n", 7, r"a '#' header line after the orders"),
        (HEADER + "# NUMBER VOTERS: 5\n2: 1,2,3\n", 6, r"'# NUMBER VOTERS: 5' but the orders add up to 2"),
        (HEADER + "# NUMBER UNIQUE ORDERS: 1\n2: 1,2,3\n1: 3,2,1\n", 6, r"NUMBER UNIQUE ORDERS: 1' but .* 2"),
        (HEADER.replace("NAME 3: c", "NAME 3: a") + "1: 1,2,3\n", 5, r"alternatives 1 and 3 have the same name 'a'"),
        (HEADER.replace("# ALTERNATIVE NAME 3: c\n", "") + "1: 1,2\n", 2, r"no '# ALTERNATIVE NAME k:' line .* 3"),
        (HEADER + "# ALTERNATIVE NAME 4: d\n1: 1,2,3\n", 6, r"alternative 4 is named, but NUMBER ALTERNATIVES is 3"),
        (HEADER.replace("NAME 2: b", "NAME 2:  "), 4, r"alternative 2 has an empty name"),
        (HEADER.replace("NUMBER ALTERNATIVES: 3", "NUMBER ALTERNATIVES: three"), 2, r"must be a whole number"),
        (HEADER.replace("{kind}", "cat"), 1, r"'# DATA TYPE: cat': read_preflib reads ordinal PrefLib data"),
        ("3\n1,a\n2,b\n3,c\n2,2,1\n2,1,2,3\n", 1, r"this is the old PrefLib format .*parse_old"),
    ],
)
def test_a_malformed_file_raises_naming_the_file_and_line(text, line, message, tmp_path):
    path = tmp_path / "bad.soc"
    path.write_text(text.replace("{kind}", "soc"), encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        read_preflib(path)
    assert info.value.line == line and info.value.path == str(path)
    assert str(info.value).startswith(f"{str(path)!r} line {line}: ")


def test_a_file_without_orders_or_header_is_refused(tmp_path):
    (tmp_path / "empty.toi").write_text(HEADER.replace("{kind}", "toi"), encoding="utf-8")
    with pytest.raises(FormatError, match=r"lists no order after its header"):
        read_preflib(tmp_path / "empty.toi")
    (tmp_path / "x.soc").write_text("a,b\n1,2\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"no '# NUMBER ALTERNATIVES:' line"):
        read_preflib(tmp_path / "x.soc")
    with pytest.raises(LeaderboardError, match=r"file not found"):
        read_preflib(tmp_path / "nope.soc")


def test_the_extension_gives_the_kind_when_the_header_does_not(tmp_path):
    text = HEADER.replace("# DATA TYPE: {kind}\n", "") + "1: 1,{2,3}\n"
    (tmp_path / "x.toc").write_text(text, encoding="utf-8")
    assert read_preflib(tmp_path / "x.toc").scores["order 1"].tolist() == [2.0, 1.0, 1.0]
    (tmp_path / "x.soc").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"are tied, but the file is soc"):
        read_preflib(tmp_path / "x.soc")
    (tmp_path / "x.txt").write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=r"the extension '.txt' and no '# DATA TYPE:'"):
        read_preflib(tmp_path / "x.txt")


def test_an_unranked_alternative_is_an_error_unless_dropped(tmp_path):
    path = tmp_path / "x.soi"
    path.write_text(HEADER.replace("{kind}", "soi") + "2: 1,2\n1: 2\n", encoding="utf-8")
    with pytest.raises(EmptySystemError, match=r"system\(s\) 'c' have no score"):
        read_preflib(path)
    with pytest.warns(UserWarning, match=r"x.soi.*ranked by no voter: 'c'"):
        lb = read_preflib(path, drop_empty=True)
    assert lb.systems == ("a", "b") and "ranked by no voter: 'c'" in lb.notes[-1]


def test_a_repeated_order_is_merged_with_a_note(tmp_path):
    path = tmp_path / "x.soc"
    path.write_text(HEADER.replace("{kind}", "soc") + "2: 1,2,3\n1: 3,2,1\n4: 1, 2, 3\n", encoding="utf-8")
    lb = read_preflib(path)
    assert lb.weights.tolist() == [6.0, 1.0]
    assert lb.notes == ("lines 6 and 8 give the same order: merged into one task",)


def test_an_order_with_every_alternative_tied_warns_that_it_cannot_discriminate(tmp_path):
    path = tmp_path / "x.toc"
    path.write_text(HEADER.replace("{kind}", "toc") + "2: 1,2,3\n1: {1,2,3}\n", encoding="utf-8")
    with pytest.warns(DegenerateTaskWarning, match=r"order 2"):
        read_preflib(path)


# ---------------------------------------------------------------------- the conversion itself
def test_from_orders_checks_its_input():
    with pytest.raises(UnknownSystemError, match=r"unknown system 'd' in an order"):
        from_orders([(["a", "d"], 1)], systems=["a", "b"])
    with pytest.raises(LeaderboardError, match=r"order 1 ranks 'a' more than once"):
        from_orders([(["a", {"a", "b"}], 1)])
    with pytest.raises(InvalidWeightError, match=r"order 2 has count 1.5"):
        from_orders([(["a", "b"], 1), (["b", "a"], 1.5)])
    with pytest.raises(LeaderboardError, match=r"has no order"):
        from_orders([])


@st.composite
def elections(draw):
    n = draw(st.integers(2, 5))
    systems = [f"s {i}, x" for i in range(n)]
    orders = []
    for k in range(draw(st.integers(1, 6))):  # the first order ranks everyone: no empty system
        ranked = draw(st.permutations(systems))[: n if k == 0 else draw(st.integers(1, n))]
        cuts = sorted(draw(st.sets(st.integers(1, max(len(ranked) - 1, 1)), max_size=len(ranked))))
        tiers = [frozenset(ranked[i:j]) for i, j in zip([0, *cuts], [*cuts, len(ranked)]) if ranked[i:j]]
        orders.append((tuple(tiers), draw(st.integers(1, 4))))
    return systems, orders


@given(elections())
def test_orders_to_leaderboard_to_orders_keeps_the_election(election):
    systems, orders = election
    expected = Counter()
    for tiers, count in orders:
        expected[tiers] += count
    lb = from_orders(orders, systems=systems)
    assert Counter(dict(to_orders(lb))) == expected
    assert order_kind(to_orders(lb), lb.n_systems) in KINDS


# ---------------------------------------------------------------------- exact Kemeny on an election
def test_kemeny_of_a_preflib_election_matches_brute_force():
    lb = read_preflib(DATA / "council.soc")
    orders = [([next(iter(t)) for t in tiers], count) for tiers, count in to_orders(lb)]
    assert cs.condorcet_winner(cs.pairwise(lb)) is None  # a majority cycle: the solve is not trivial

    def distance(ranking):  # Kendall distance to every voter's order, weighted by counts
        pos = {s: i for i, s in enumerate(ranking)}
        return sum(
            count * sum(1 for x, y in itertools.combinations(order, 2) if pos[x] > pos[y])
            for order, count in orders
        )

    best = min(distance(p) for p in itertools.permutations(lb.systems))
    res = cs.kemeny(lb, method="ilp")
    assert res.is_optimal and res.objective == best == distance(res.order)
    assert cs.kemeny(lb).objective == best
