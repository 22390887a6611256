"""pref_voting interoperability: profile conversions, rule cross-checks, and living beside HiGHS.

pref_voting is optional: every test that needs it is marked ``prefvoting`` and skipped when it
is not installed (it runs in the CI leg that installs the ``prefvoting`` extra). Those tests
run their code in a subprocess, so pref_voting's imports (ortools, numba) never enter the
test process, where the other tests use highspy.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pandas as pd
import pytest

import consensus as cs
from consensus.formats.pref_voting import (
    PREF_VOTING_HINT,
    from_pref_voting,
    to_pref_voting,
)

ROOT = Path(__file__).resolve().parent.parent
HAVE_PREF_VOTING = importlib.util.find_spec("pref_voting") is not None
if not HAVE_PREF_VOTING and __import__("os").environ.get("CONSENSUS_REQUIRE_PREF_VOTING") == "1":
    raise RuntimeError("CONSENSUS_REQUIRE_PREF_VOTING=1 (the prefvoting CI leg) but pref_voting is not installed")
#: Marks a test that needs pref_voting: it runs in the prefvoting CI leg and is skipped elsewhere.
requires_pref_voting = pytest.mark.skipif(
    not HAVE_PREF_VOTING,
    reason=f"pref_voting is not installed in this Python ({PREF_VOTING_HINT}); "
    "these tests run in the CI leg with the prefvoting extra",
)


def _run(code: str, timeout: float = 300) -> dict:
    """Run `code` in a fresh interpreter (cwd: the repository) and return the JSON it prints last."""
    out = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )
    assert out.returncode == 0, f"subprocess failed (exit {out.returncode}):\n{out.stderr[-3000:]}"
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------- without pref_voting
def test_a_missing_pref_voting_raises_an_import_error_with_the_install_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pref_voting", None)  # makes `import pref_voting...` fail
    lb = cs.Leaderboard.from_frame(pd.DataFrame({"t": [1.0, 2.0]}, index=["a", "b"]))
    with pytest.raises(ImportError, match=r"pip install 'leaderboard-consensus\[prefvoting\]'"):
        to_pref_voting(lb)
    with pytest.raises(ImportError, match=r"needs the optional dependency pref_voting"):
        from_pref_voting(object())


def test_importing_the_module_does_not_import_pref_voting():
    code = (
        "import sys, json, consensus.formats.pref_voting\n"
        "print(json.dumps(sorted(m for m in ('pref_voting', 'ortools', 'numba') if m in sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []


# ---------------------------------------------------------------------- conversions
CONVERSIONS = """
import json, random, warnings
from collections import Counter
warnings.simplefilter("ignore")
from pref_voting.profiles import Profile
from pref_voting.profiles_with_ties import ProfileWithTies
import consensus as cs
from consensus.formats.preflib import read_preflib
from consensus.formats.pref_voting import from_pref_voting, to_pref_voting

def strict(prof):
    rankings, counts = prof.rankings_counts
    found = Counter()
    for r, c in zip(rankings, counts):
        found[tuple(int(x) for x in r)] += int(c)
    return found

def weak(prof):
    rmaps, counts = prof.rankings_as_dicts_counts
    found = Counter()
    for r, c in zip(rmaps, counts):
        found[tuple(sorted((int(k), sorted(r.values()).index(v)) for k, v in r.items()))] += int(c)
    return found

rng = random.Random(7)
report = {"profile_round_trips": 0, "tie_round_trips": 0}
for trial in range(40):
    n = rng.randint(2, 6)
    rankings = [rng.sample(range(n), n) for _ in range(rng.randint(1, 9))]
    counts = [rng.randint(1, 4) for _ in rankings]
    cmap = {i: f"cand {i}, {'xyz'[i % 3]}" for i in range(n)}
    prof = Profile(rankings, rcounts=counts, cmap=cmap)
    back = to_pref_voting(from_pref_voting(prof))
    assert type(back).__name__ == "Profile", type(back)
    assert strict(back) == strict(prof) and back.candidates == prof.candidates and back.cmap == prof.cmap
    report["profile_round_trips"] += 1
for trial in range(40):
    n = rng.randint(2, 6)
    rmaps = []
    for _ in range(rng.randint(1, 8)):
        ranked = rng.sample(range(n), rng.randint(1, n))
        rmaps.append({c: rng.randint(1, 3) for c in ranked})
    rmaps.append({c: 1 for c in range(n)})  # every candidate ranked, and a tie: a ProfileWithTies
    prof = ProfileWithTies(rmaps, rcounts=[rng.randint(1, 3) for _ in rmaps], candidates=list(range(n)),
                           cmap={i: f"c{i}" for i in range(n)})
    lb = from_pref_voting(prof)
    back = to_pref_voting(lb)
    assert weak(back) == weak(prof), (weak(back), weak(prof))
    p = cs.pairwise(lb)
    for i in range(n):
        for j in range(n):
            assert p.margins[i][j] == prof.margin(i, j), (i, j)
    report["tie_round_trips"] += 1

# the documented examples
import pandas as pd
frame = pd.DataFrame({"qa": [0.9, 0.5, 0.7], "nli": [0.6, 0.8, 0.7]}, index=["a", "b", "c"])
prof = to_pref_voting(cs.Leaderboard.from_frame(frame))
report["doc_to"] = [[[int(c) for c in r] for r in prof.rankings], {str(k): v for k, v in prof.cmap.items()}]
lb = from_pref_voting(Profile([[0, 1, 2], [2, 1, 0]], rcounts=[3, 2], cmap={0: "a", 1: "b", 2: "c"}))
report["doc_from"] = lb.scores.values.tolist()
report["kinds"] = {f: type(to_pref_voting(read_preflib("tests/data/preflib/" + f))).__name__
                   for f in ("films.soc", "club.soi", "debian.toc", "lunch.toi")}
report["files_back"] = all(from_pref_voting(to_pref_voting(read_preflib("tests/data/preflib/" + f)))
                           == read_preflib("tests/data/preflib/" + f)
                           for f in ("films.soc", "club.soi", "debian.toc", "lunch.toi"))
ext = ProfileWithTies([{0: 1}, {1: 1, 2: 2}], candidates=[0, 1, 2])
ext.use_extended_strict_preference()
lb = from_pref_voting(ext)
report["extended"] = [lb.scores.iloc[:, 0].tolist(), [[float(cs.pairwise(lb).margins[i][j]) == ext.margin(i, j)
                      for j in range(3)] for i in range(3)]]
print(json.dumps(report))
"""


@pytest.mark.slow
@pytest.mark.prefvoting
@requires_pref_voting
def test_conversions_round_trip_and_keep_margins():
    report = _run(CONVERSIONS)
    assert report["profile_round_trips"] == 40 and report["tie_round_trips"] == 40
    assert report["doc_to"] == [[[0, 2, 1], [1, 2, 0]], {"0": "a", "1": "b", "2": "c"}]
    assert report["doc_from"] == [[2.0, 0.0], [1.0, 1.0], [0.0, 2.0]]
    assert report["kinds"] == {"films.soc": "Profile", "club.soi": "ProfileWithTies",
                               "debian.toc": "ProfileWithTies", "lunch.toi": "ProfileWithTies"}
    assert report["files_back"]
    # extended strict preference: the unranked become a tied last tier, margins kept
    assert report["extended"][0] == [2.0, 1.0, 1.0]
    assert all(all(row) for row in report["extended"][1])


# ---------------------------------------------------------------------- rules against pref_voting's
RULE_CHECK = """
import inspect, json, random, warnings
warnings.simplefilter("ignore")
from pref_voting.profiles import Profile
import pref_voting.voting_methods as vm
import consensus as cs
from consensus.rules import RULES
from consensus.formats.pref_voting import from_pref_voting

# consensus rule, pref_voting method, options; pref_voting measures defeats by margins
pairs = [("copeland", vm.copeland, {}), ("minimax", vm.minimax, {"variant": "margins"}), ("borda", vm.borda, {})]
if "schulze" in RULES:
    pairs.append(("schulze", vm.beat_path, {"variant": "margins"}))
if "ranked_pairs" in RULES:  # the winners of every tie-breaking order (pref_voting's stack search where it has one)
    stacks = "algorithm" in inspect.signature(vm.ranked_pairs).parameters
    pairs.append(("ranked_pairs", (lambda prof: vm.ranked_pairs(prof, algorithm="from_stacks")) if stacks else vm.ranked_pairs,
                  {"variant": "margins"}))
rng = random.Random(2024)
compared = {name: 0 for name, _, _ in pairs}
parity = {"odd": 0, "even": 0}
mismatches = []


def check(prof, n):
    parity["odd" if prof.num_voters % 2 else "even"] += 1
    lb = from_pref_voting(prof)
    margins = [abs(int(prof.margin(i, j))) for i in range(n) for j in range(i + 1, n)]
    distinct = 0 not in margins and len(set(margins)) == len(margins)
    for name, method, options in pairs:
        ours = sorted(cs.rank(lb, name, **options).winners)
        theirs = sorted(prof.cmap[c] for c in method(prof))
        compared[name] += 1
        if ours != theirs:
            mismatches.append([name, ours, theirs, [[int(c) for c in r] for r in prof.rankings]])
    return distinct


for trial in range(240):  # few voters: majority ties and equal margins are common
    n = 3 + trial % 4
    voters = 2 * rng.randint(1, 6) + trial % 2
    check(Profile([rng.sample(range(n), n) for _ in range(voters)], cmap={i: f"s{i}" for i in range(n)}), n)
for n in (3, 4, 5, 6):  # more voters, so that all margins can differ (ranked pairs): 20 profiles each
    found = attempts = 0
    while found < 20 and attempts < 5000:
        attempts += 1
        rankings = [rng.sample(range(n), n) for _ in range(rng.randint(3, 10))]
        prof = Profile(rankings, rcounts=[rng.randint(1, 40) for _ in rankings], cmap={i: f"s{i}" for i in range(n)})
        margins = [abs(int(prof.margin(i, j))) for i in range(n) for j in range(i + 1, n)]
        if 0 not in margins and len(set(margins)) == len(margins):
            found += check(prof, n)
print(json.dumps({"compared": compared, "parity": parity, "mismatches": mismatches[:5]}))
"""


@pytest.mark.slow
@pytest.mark.prefvoting
@requires_pref_voting
def test_rule_winners_match_pref_voting_on_random_strict_profiles():
    """copeland, minimax (margins, pref_voting's measure), borda and, when registered, schulze
    (pref_voting's beat_path) and ranked_pairs: the same winner sets on random profiles of strict
    complete orders, 3-6 candidates, odd and even numbers of voters. Ranked pairs with equal
    margins included: both return the winners of every tie-breaking order."""
    report = _run(RULE_CHECK)
    assert report["mismatches"] == []
    assert report["parity"]["odd"] > 100 and report["parity"]["even"] > 100
    assert all(count >= 80 for count in report["compared"].values()), report["compared"]
    assert {"copeland", "minimax", "borda"} <= set(report["compared"])


# ---------------------------------------------------------------------- pref_voting beside highspy
BESIDE_HIGHS = """
import json, sys
first = sys.argv[1]
if first == "highspy":
    import highspy
    from pref_voting.profiles import Profile
    import pref_voting.voting_methods as vm
else:
    from pref_voting.profiles import Profile
    import pref_voting.voting_methods as vm
    import highspy
import consensus as cs
from consensus.formats.preflib import read_preflib
from consensus.formats.pref_voting import to_pref_voting
lb = read_preflib("tests/data/preflib/council.soc")
prof = to_pref_voting(lb)
ilp = cs.kemeny(lb, method="ilp")
brute = cs.kemeny(lb, method="brute_force")
print(json.dumps({"status": str(ilp.status), "method": ilp.method, "ilp": ilp.objective, "brute": brute.objective,
                  "pv_copeland": sorted(prof.cmap[c] for c in vm.copeland(prof)),
                  "cs_copeland": sorted(cs.rank(lb, "copeland").winners),
                  "loaded": sorted(m for m in ("highspy", "ortools", "numba") if m in sys.modules)}))
"""


@pytest.mark.slow
@pytest.mark.prefvoting
@requires_pref_voting
@pytest.mark.parametrize("first", ["highspy", "pref_voting"])
def test_pref_voting_and_highspy_share_a_process(first):
    """Either import order, then an exact Kemeny solve by HiGHS: no crash, the certified optimum."""
    out = subprocess.run(
        [sys.executable, "-c", BESIDE_HIGHS, first], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr[-3000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert report["loaded"] == ["highspy", "numba", "ortools"]
    assert report["method"].startswith("ilp") and "optimal" in report["status"].lower()
    assert report["ilp"] == report["brute"]
    assert report["pv_copeland"] == report["cs_copeland"]
