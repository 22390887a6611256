"""Built-in examples and the Gumbel generator."""

from __future__ import annotations

import numpy as np
import pytest

import consensus as cs


def test_list_examples_names():
    assert [e.name for e in cs.list_examples()] == ["votenrank-toy", "colombo-table1", "gumbel"]


def test_gumbel_is_seeded_and_shaped():
    a = cs.datasets.gumbel_leaderboard(6, 4, phi=0.3, seed=7)
    b = cs.load_example("gumbel", n_systems=6, n_tasks=4, phi=0.3, seed=7)
    assert a == b
    assert a.systems == tuple(f"s{i}" for i in range(1, 7)) and a.n_tasks == 4
    assert a != cs.datasets.gumbel_leaderboard(6, 4, phi=0.3, seed=8)


def test_gumbel_location_grows_with_system_index():
    lb = cs.datasets.gumbel_leaderboard(5, 4000, phi=1.0, seed=0)
    means = lb.values.mean(axis=1)
    # Gumbel(loc, 1) has mean loc + Euler-Mascheroni constant
    assert np.allclose(means, np.arange(1, 6) + np.euler_gamma, atol=0.1)
    assert cs.condorcet_winner(lb) == "s5"


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"n_systems": 1}, "n_systems"),
        ({"n_tasks": 0}, "n_tasks"),
        ({"phi": -1.0}, "phi"),
    ],
)
def test_gumbel_bad_parameters(kwargs, pattern):
    with pytest.raises(cs.InvalidOptionError, match=pattern):
        cs.datasets.gumbel_leaderboard(**kwargs)


def test_unknown_example_and_parameter():
    with pytest.raises(cs.InvalidOptionError, match=r"unknown example 'toy'; choose one of"):
        cs.load_example("toy")
    with pytest.raises(cs.InvalidOptionError, match=r"takes no parameter"):
        cs.load_example("votenrank-toy", seed=1)


# ---------------------------------------------------------------- Vote'n'Rank's published leaderboards

VOTENRANK_FILES = {  # git blob hashes of tables/leaderboards - *.csv in PragmaticsLab/vote_and_rank
    "votenrank_glue.csv": "5e24aee49337c9a3acd7f7ea0c0ed6ddce542573",
    "votenrank_superglue.csv": "d3ca763b8b2c6bf2e71003b1a21cdb265d7fc060",
    "votenrank_value.csv": "c4d2f26f25415904b5b935586f8cd03237e6a2ee",
}


def test_the_published_tables_are_the_authors_files_byte_for_byte():
    import csv
    import hashlib
    from importlib import resources

    data = resources.files("consensus").joinpath("data")
    with data.joinpath("votenrank_sources.csv").open("r", encoding="utf-8", newline="") as fh:
        sources = {row["file"]: row for row in csv.DictReader(fh)}
    assert set(sources) == set(VOTENRANK_FILES)
    for name, blob in VOTENRANK_FILES.items():
        raw = data.joinpath(name).read_bytes()
        assert hashlib.sha1(b"blob %d\0" % len(raw) + raw).hexdigest() == blob == sources[name]["git_blob_sha1"]
        assert hashlib.sha256(raw).hexdigest() == sources[name]["sha256"]
        assert sources[name]["repository"] == "https://github.com/PragmaticsLab/vote_and_rank"


def test_leaderboards_are_listed_on_request():
    names = [e.name for e in cs.list_examples(leaderboards=True)]
    assert names == ["votenrank-toy", "colombo-table1", "gumbel", "votenrank-glue", "votenrank-superglue",
                     "votenrank-value"]
    with pytest.raises(cs.InvalidOptionError, match=r"leaderboards must be True or False"):
        cs.list_examples(leaderboards="yes")


def test_votenrank_glue_as_the_paper_defines_it():
    lb = cs.load_example("votenrank-glue")
    assert (lb.n_systems, lb.n_tasks, lb.has_missing) == (30, 14, False)
    assert lb.systems[:3] == ("ERNIE", "StructBERT + CLEVER", "DeBERTa / TuringNLRv4") and lb.systems[-1] == "BERT on STILTs"
    assert lb.tasks == ("CoLA", "SST-2", "MRPC_n1", "MRPC_n2", "STS-B_n1", "STS-B_n2", "QQP_n1", "QQP_n2",
                        "MNLI-m", "MNLI-mm", "QNLI", "RTE", "WNLI", "AX")
    weights = lb.weights.to_dict()
    assert {t for t, w in weights.items() if w == 0.5} == {f"{x}_n{k}" for x in ("MRPC", "STS-B", "QQP") for k in (1, 2)}
    assert weights["AX"] == 0.0 and weights["CoLA"] == 1.0
    assert lb.scores.loc["ERNIE", ["CoLA", "MRPC_n1", "MRPC_n2", "AX"]].tolist() == [75.5, 93.9, 91.8, 51.7]
    assert any("AX weight 0" in n and "Vote'n'Rank" in n for n in lb.notes)
    assert any("head=30" in n for n in lb.notes)


def test_votenrank_glue_whole_table_keeps_the_authors_suffixes():
    lb = cs.load_example("votenrank-glue", head=None, dropna=False)
    assert lb.n_systems == 100 and {"RefBERT_1", "RefBERT_4", "force_SEM_3"} <= set(lb.systems)
    assert "RefBERT" not in lb.systems and any(n.startswith("--dedupe") for n in lb.notes)
    assert lb.scores.loc["MaChAmp (bert-large, single task)", ["STS-B_n1", "STS-B_n2"]].isna().tolist() == [True, False]
    assert cs.load_example("votenrank-glue", head=None).n_systems == 97  # XLNet, ALBERT, MaChAmp miss a score
    assert cs.load_example("votenrank-glue", head=5).n_systems == 5
    with pytest.raises(cs.InvalidOptionError, match=r"head must be an integer >= 2"):
        cs.load_example("votenrank-glue", head=1)
    with pytest.raises(cs.InvalidOptionError, match=r"takes no parameter\(s\) seed; it takes head, dropna"):
        cs.load_example("votenrank-glue", seed=0)


def test_votenrank_superglue_as_the_paper_defines_it():
    lb = cs.load_example("votenrank-superglue")
    assert (lb.n_systems, lb.n_tasks, lb.has_missing) == (22, 14, False)
    assert {"Outside Best", "Snorkel [SuperGLUE v1.9]"}.isdisjoint(lb.systems) and "BERT" in lb.systems
    assert [t for t in lb.tasks if lb.weights[t] == 0] == ["AX-b", "AX-g_n1", "AX-g_n2"]
    assert [t for t in lb.tasks if lb.weights[t] == 0.5] == [
        "CB_n1", "CB_n2", "MultiRC_n1", "MultiRC_n2", "ReCoRD_n1", "ReCoRD_n2"]
    assert lb.scores.loc["CBoW", ["MultiRC_n1", "MultiRC_n2", "AX-b"]].tolist() == [0.0, 0.5, -0.4]
    assert any("dropna" in n for n in lb.notes)
    full = cs.load_example("votenrank-superglue", dropna=False)
    assert full.n_systems == 24 and full.scores.loc["Snorkel [SuperGLUE v1.9]", "BoolQ"] != full.scores.loc["Snorkel [SuperGLUE v1.9]", "BoolQ"]
    with pytest.raises(cs.InvalidOptionError, match=r"dropna must be True or False"):
        cs.load_example("votenrank-superglue", dropna=None)


def test_votenrank_value_renamed_as_the_authors_do():
    lb = cs.load_example("votenrank-value")
    assert lb.systems == ("Human", "craig.starr", "DuKG", "HERO 1", "HERO 2", "HERO 3", "HERO 4")
    assert lb.tasks[0] == "TVR" and lb.n_tasks == 11 and "Mean-Rank" not in lb.tasks
    assert [c for c in lb.missing_cells()] == [("Human", t) for t in ("TVR", "How2R", "YC2R", "VATEX-EN-R", "YC2C")]
    assert lb.scores.loc["HERO 4", "VATEX-EN-C"] == 55.98
    assert cs.load_example("votenrank-value", dropna=True).n_systems == 6


@pytest.mark.parametrize("name", ["votenrank-glue", "votenrank-superglue"])
def test_every_rule_ignores_a_task_of_weight_zero(name):
    from consensus.rules import RULE_NAMES

    lb = cs.load_example(name)
    small = lb.select(systems=lb.systems[:7])  # Kemeny's brute force stays quick
    zero = [t for t in lb.tasks if lb.weights[t] == 0]
    without = small.select(tasks=[t for t in small.tasks if t not in zero])
    for rule in RULE_NAMES:
        opts = {"vector": (3, 2, 1)} if rule == "scoring" else {}
        assert cs.rank(small, rule, **opts).ranking == cs.rank(without, rule, **opts).ranking, rule
