"""Figures: rendered to PNG (non-trivial size) and checked against the data they were given."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from matplotlib.colors import to_rgba  # noqa: E402

import consensus as cs  # noqa: E402
from consensus.plot import (  # noqa: E402
    NODE_COLOR,
    WINNER_COLOR,
    plot_analysis,
    plot_bars,
    plot_confidence,
    plot_majority_graph,
    plot_rank_changes,
    plot_scores,
)




def _png(fig, tmp_path, name="fig.png"):
    path = tmp_path / name
    fig.savefig(path, dpi=80)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 5_000, f"{name} is suspiciously small ({len(data)} bytes)"
    return path


def _gids(artists, prefix):
    return sorted(a.get_gid()[len(prefix):] for a in artists if (a.get_gid() or "").startswith(prefix))


def _node_colors(fig):
    (nodes,) = [c for c in fig.axes[0].collections if c.get_gid() == "nodes"]
    return dict(zip(fig.consensus_nodes, map(tuple, nodes.get_facecolors())))


# ---------------------------------------------------------------- majority graph
def test_majority_graph_draws_the_majority_edges_and_highlights_the_condorcet_winner(votenrank_toy, tmp_path):
    fig = plot_majority_graph(votenrank_toy)
    _png(fig, tmp_path)
    edges = _gids(fig.axes[0].patches, "edge:")
    assert edges == sorted(f"{u}->{v}" for u, v in cs.majority_graph(votenrank_toy).edges())
    colors = _node_colors(fig)
    assert colors["B"] == to_rgba(WINNER_COLOR)
    assert {colors[s] for s in "ACD"} == {to_rgba(NODE_COLOR)}
    assert "Condorcet winner B" in fig.axes[0].get_title()


def test_majority_graph_edge_width_grows_with_the_margin(tmp_path):
    frame = pd.DataFrame({"t1": [3, 2, 1], "t2": [3, 1, 2], "t3": [1, 3, 2]}, index=["a", "b", "c"], dtype=float)
    lb = cs.Leaderboard.from_frame(frame, weights={"t2": 3.0})  # a > b and a > c by 3, c > b by 1
    fig = plot_majority_graph(lb)
    graph = cs.majority_graph(lb)
    widths = {p.get_gid()[5:]: p.get_linewidth() for p in fig.axes[0].patches}
    margins = {f"{u}->{v}": d["margin"] for u, v, d in graph.edges(data=True)}
    assert set(widths) == set(margins)
    ordered = sorted(margins, key=margins.get)
    assert [widths[e] for e in ordered] == sorted(widths.values())
    assert widths[ordered[-1]] > widths[ordered[0]]


def test_majority_graph_without_winner_shows_ties_and_no_highlight(colombo_table1, tmp_path):
    fig = plot_majority_graph(colombo_table1, ranking=["C", "B", "A"])
    _png(fig, tmp_path)
    assert _gids(fig.axes[0].patches, "edge:") == ["B->A", "C->B"]
    assert _gids(fig.axes[0].lines, "tie:") == ["A=C"]
    assert set(_node_colors(fig).values()) == {to_rgba(NODE_COLOR)}
    assert fig.consensus_nodes == ("C", "B", "A")
    assert "no Condorcet winner" in fig.axes[0].get_title()


def test_majority_graph_options(cycle3):
    fig = plot_majority_graph(cycle3, highlight=["sys-a"], layout="spring")
    assert _node_colors(fig)["sys-a"] == to_rgba(WINNER_COLOR)
    with pytest.raises(cs.InvalidOptionError, match="every system"):
        plot_majority_graph(cycle3, ranking=["sys-a"])
    with pytest.raises(cs.InvalidOptionError, match="unknown layout 'grid'"):
        plot_majority_graph(cycle3, layout="grid")
    with pytest.raises(cs.InvalidOptionError, match="unknown system"):
        plot_majority_graph(cycle3, highlight=["nope"])


# ---------------------------------------------------------------- rank changes
def test_rank_change_chart_lines_are_the_positions(votenrank_toy, tmp_path):
    comp = cs.compare_rules(votenrank_toy, rules=["mean", "borda", "plurality", "minimax"])
    fig = plot_rank_changes(comp)
    _png(fig, tmp_path)
    positions = comp.positions()
    labels = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert labels == ["mean", "borda", "plurality", "minimax", "kemeny"]
    lines = {line.get_gid()[7:]: line for line in fig.axes[0].lines if (line.get_gid() or "").startswith("system:")}
    assert set(lines) == set(votenrank_toy.systems)
    for system, line in lines.items():
        assert list(line.get_ydata()) == positions.loc[system, labels].tolist()
    assert lines["A"].get_ydata().tolist() == [4, 4, 1, 2, 4]  # plurality puts A first, minimax ties A second


# ---------------------------------------------------------------- confidence heatmap
def test_confidence_heatmap_is_the_confidence_matrix_in_ranking_order(tmp_path):
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(6, 30)) + np.arange(6)[:, None]
    scores[rng.random(scores.shape) < 0.2] = np.nan
    frame = pd.DataFrame(scores, index=[f"m{i}" for i in range(6)], columns=[f"t{j}" for j in range(30)])
    lb = cs.Leaderboard.from_frame(frame)
    conf = cs.pairwise_confidence(lb, delta=0.1)
    fig = plot_confidence(conf)
    _png(fig, tmp_path)
    (image,) = [im for im in fig.axes[0].images if im.get_gid() == "confidence"]
    np.testing.assert_array_equal(np.asarray(image.get_array()), conf.distance)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == list(conf.order)
    assert conf.order[0] == "m5"  # the strongest system comes first
    assert (conf.distance[np.triu_indices(6, 1)] > 0).sum() > 0  # some confident wins drawn


# ---------------------------------------------------------------- bars and the analysis figure
def test_bars_and_scores(votenrank_toy, tmp_path):
    fig = plot_bars(pd.Series({"qa": 0.7, "nli": 0.3}), title="weights")
    assert [p.get_height() for p in fig.axes[0].patches] == [0.7, 0.3]
    result = cs.rank(votenrank_toy, "borda")
    fig = plot_scores(result)
    _png(fig, tmp_path)
    heights = {p.get_gid()[4:]: p.get_height() for p in fig.axes[0].patches}
    assert heights == {"B": 9.0, "C": 8.0, "D": 7.0, "A": 6.0}


def test_many_bars_are_drawn_horizontally_in_order(tmp_path):
    values = pd.Series(np.linspace(1.0, -1.0, 100), index=[f"system-{i}" for i in range(100)])
    fig = plot_bars(values, title="margins")
    _png(fig, tmp_path)
    ax = fig.axes[0]
    assert [p.get_width() for p in ax.patches] == pytest.approx(values.tolist())
    assert [t.get_text() for t in ax.get_yticklabels()][:2] == ["system-0", "system-1"]
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # inverted: the first system on top
    assert fig.get_figheight() > 20  # a row per label


def test_analysis_figure_has_both_panels(votenrank_toy, tmp_path):
    analysis = cs.analyze(votenrank_toy, prospective=False)
    fig = plot_analysis(analysis)
    _png(fig, tmp_path)
    assert len(fig.axes) == 2
    assert "Condorcet winner B" in fig.axes[0].get_title()
    assert fig.consensus_nodes == analysis.kemeny.ranking
