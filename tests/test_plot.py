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
    GRAPH_MAX_SYSTEMS,
    NODE_COLOR,
    WINNER_COLOR,
    plot_analysis,
    plot_bars,
    plot_certificate,
    plot_condorcet_weights,
    plot_confidence,
    plot_majority_graph,
    plot_margin_heatmap,
    plot_rank_changes,
    plot_scores,
    rank_change_systems,
)


def _board(n, t=14, missing=0.2, seed=0):
    """A realistic leaderboard: latent quality + noise, about `missing` of the cells empty, long names."""
    rng = np.random.default_rng(seed)
    quality = rng.normal(size=n)
    scores = 70 + 5 * quality[:, None] + rng.normal(scale=3, size=(n, t))
    scores[rng.random(scores.shape) < missing] = np.nan
    scores[np.isnan(scores).all(axis=1), 0] = 50.0
    names = [f"org-{i:03d}/model-{'x' * (i % 17)}-v{i}" for i in range(n)]
    return cs.Leaderboard.from_frame(pd.DataFrame(scores, index=names, columns=[f"task_{j}" for j in range(t)]))


def _inside_figure(fig, texts):
    """Every text is drawn fully inside the figure (nothing clipped at an edge)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    width, height = fig.bbox.width, fig.bbox.height
    for text in texts:
        box = text.get_window_extent(renderer)
        assert box.x0 >= -1 and box.y0 >= -1 and box.x1 <= width + 1 and box.y1 <= height + 1, text.get_text()


def _png(fig, tmp_path, name="fig.png"):
    path = tmp_path / name
    fig.savefig(path, dpi=80)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image as mpimg

    pixels = mpimg.imread(path)[..., :3]
    drawn = (pixels < 0.95).any(axis=-1).mean()  # share of pixels that are not (near) white
    assert drawn > 0.01, f"{name} is almost blank ({drawn:.2%} of its pixels drawn)"
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
    assert fig.get_figheight() >= 100 * 0.12  # a row per label (at least 8.6 pt for 6 pt labels)


def test_analysis_figure_has_both_panels(votenrank_toy, tmp_path):
    analysis = cs.analyze(votenrank_toy, prospective=False)
    fig = plot_analysis(analysis)
    _png(fig, tmp_path)
    assert len(fig.axes) == 2
    assert "Condorcet winner B" in fig.axes[0].get_title()
    assert fig.consensus_nodes == analysis.kemeny.order


# ---------------------------------------------------------------- leaderboards of 16 to 200 systems
def test_the_majority_relation_is_a_heatmap_above_15_systems(tmp_path):
    small = _board(GRAPH_MAX_SYSTEMS)
    assert plot_majority_graph(small).consensus_kind == "graph"
    lb = _board(GRAPH_MAX_SYSTEMS + 1)
    ranking = cs.kemeny(lb).order
    fig = plot_majority_graph(lb, ranking=ranking)
    _png(fig, tmp_path)
    assert fig.consensus_kind == "heatmap" and fig.consensus_nodes == ranking
    ax = fig.axes[0]
    assert not [p for p in ax.patches if (p.get_gid() or "").startswith("edge:")]  # no arrows
    (image,) = [im for im in ax.images if im.get_gid() == "margins"]
    pairs = cs.pairwise(lb)
    order = [pairs.systems.index(s) for s in ranking]
    np.testing.assert_allclose(np.asarray(image.get_array()), pairs.margins[np.ix_(order, order)])
    low, high = image.get_clim()
    assert low == -high > -np.inf and image.get_cmap().name == "RdBu"  # diverging, centred at 0
    labels = [t for t in ax.texts if (t.get_gid() or "").startswith("label:")]
    assert [t.get_gid()[6:] for t in labels[::2]] == list(ranking)  # rows in Kemeny order
    _inside_figure(fig, labels)


def test_heatmap_and_graph_can_be_forced():
    lb = _board(6)
    assert plot_majority_graph(lb, kind="heatmap").consensus_kind == "heatmap"
    assert plot_majority_graph(_board(20), kind="graph").consensus_kind == "graph"
    with pytest.raises(cs.InvalidOptionError, match="unknown kind"):
        plot_majority_graph(lb, kind="disc")


@pytest.mark.parametrize("n", [20, pytest.param(200, marks=pytest.mark.slow)])
def test_heatmap_labels_stay_readable_up_to_200_systems(n, tmp_path):
    lb = _board(n, t=8)
    fig = plot_margin_heatmap(lb)
    _png(fig, tmp_path)
    labels = [t for t in fig.axes[0].texts if (t.get_gid() or "").startswith("label:")]
    assert len(labels) == 2 * n
    assert min(t.get_fontsize() for t in labels) >= 6.0
    _inside_figure(fig, labels)
    # one row per system: at least 6 pt of height each
    row_points = fig.axes[0].get_window_extent().height / n * 72 / fig.dpi
    assert row_points >= 6.0


def test_figure_sizes_grow_with_the_number_of_systems():
    heat = [plot_margin_heatmap(_board(n, t=6)).get_size_inches() for n in (16, 50, 200)]
    assert heat[0][1] < heat[1][1] < heat[2][1] and heat[0][0] < heat[1][0] < heat[2][0]
    bars = [plot_bars(pd.Series(np.arange(n, dtype=float), index=[f"s{i}" for i in range(n)])).get_size_inches()
            for n in (10, 20, 30, 200)]
    assert bars[0][0] < bars[1][0] and bars[2][1] < bars[3][1]  # upright grows wide, horizontal grows tall
    long_names = plot_bars(pd.Series(np.ones(30), index=[f"a-much-longer-system-name-{i}" for i in range(30)]))
    assert long_names.get_size_inches()[0] > bars[2][0]  # room for the longer labels


def test_long_bar_labels_are_not_clipped(tmp_path):
    values = pd.Series(np.linspace(1, -1, 120), index=[f"organisation-{i}/a-long-model-name-v{i}" for i in range(120)])
    fig = plot_bars(values)
    _png(fig, tmp_path)
    _inside_figure(fig, fig.axes[0].get_yticklabels())
    assert min(t.get_fontsize() for t in fig.axes[0].get_yticklabels()) >= 6.0


# ---------------------------------------------------------------- bump chart limited to the top k
def test_rank_change_chart_draws_the_top_k_and_the_entrants_only(tmp_path):
    lb = _board(40, t=10)
    comp = cs.compare_rules(lb, rules=["mean", "borda", "plurality", "copeland"], missing="auto")
    positions = comp.positions()
    # a rule's top k counts tie groups whole: a group that straddles position k is below the top
    group_end = positions + positions.apply(lambda col: col.map(col.value_counts())) - 1
    for k in (3, 10):
        fig = plot_rank_changes(comp, top=k)
        _png(fig, tmp_path, f"bump{k}.png")
        lines = {line.get_gid()[7:]: line for line in fig.axes[0].lines if (line.get_gid() or "").startswith("system:")}
        kemeny_top = {s for s in positions.index if group_end.loc[s, "kemeny"] <= k}
        entrants = {s for s in positions.index if (group_end.loc[s] <= k).any()} - kemeny_top
        assert len(kemeny_top) <= k
        best = {s: min(positions.loc[s, c] for c in positions.columns if group_end.loc[s, c] <= k) for s in entrants}
        order = list(positions.index)
        drawn_entrants = set(sorted(entrants, key=lambda s: (best[s], order.index(s)))[:k])
        assert set(lines) == kemeny_top | drawn_entrants == set(rank_change_systems(comp, top=k))
        assert len(lines) <= 2 * k
        if len(entrants) > k:
            assert f"{len(entrants) - k} more entrants not drawn" in fig.axes[0].get_title()
        for system, line in lines.items():  # below the top: drawn on the row k + 1
            expected = np.minimum(positions.loc[system, ["mean", "borda", "plurality", "copeland", "kemeny"]], k + 1)
            assert line.get_ydata().tolist() == expected.tolist()
    assert len(plot_rank_changes(comp, top=None).consensus_systems) == len(comp.kemeny.order)  # every ranked system
    with pytest.raises(cs.InvalidOptionError, match="positive"):
        plot_rank_changes(comp, top=0)


# ---------------------------------------------------------------- certificate of a system that can never win
def _dominated():
    frame = pd.DataFrame({"qa": [0.9, 0.8, 0.7, 0.6], "nli": [0.9, 0.6, 0.8, np.nan], "summ": [0.5, 0.4, 0.6, 0.3],
                          "mt": [30.0, 20.0, 25.0, 10.0]}, index=["a", "b", "c", "d"])
    return cs.Leaderboard.from_frame(frame)


def test_certificate_plot_has_one_bar_and_one_point_per_task(tmp_path):
    lb = _board(20)
    result = next(r for r in (cs.condorcet_weights(lb, s) for s in lb.systems) if not r.feasible)
    fig = plot_condorcet_weights(result, table=lb)
    _png(fig, tmp_path)
    top, low = fig.axes[:2]
    bars = {p.get_gid()[5:]: p.get_height() for p in top.patches if (p.get_gid() or "").startswith("task:")}
    assert bars == pytest.approx(dict(result.certificate.task_advantage))
    assert list(bars) == list(lb.tasks)
    assert max(bars.values()) <= result.certificate.bound + 1e-9 or result.certificate.bound >= 0  # the proof, drawn
    points = {line.get_gid(): line for line in low.lines if line.get_gid() in ("system", "blend")}
    assert set(points) == {"system", "blend"}
    assert all(len(line.get_xdata()) == lb.n_tasks for line in points.values())
    assert "never" in fig._suptitle.get_text()


def test_certificate_scores_are_the_system_and_the_rival_blend():
    lb = _dominated()
    result = cs.condorcet_weights(lb, "b")
    assert not result.feasible and dict(result.certificate.rival_mix) == {"a": 1.0}
    fig = plot_certificate(result, table=lb)
    low = fig.axes[1]
    mine = next(line for line in low.lines if line.get_gid() == "system").get_ydata()
    blend = next(line for line in low.lines if line.get_gid() == "blend").get_ydata()
    assert np.all(np.asarray(mine) < np.asarray(blend))  # a beats b everywhere
    assert len(plot_certificate(result.certificate).axes) == 1  # without scores: the advantage panel only


def test_condorcet_weights_plot_shows_the_weights_of_a_possible_winner(votenrank_toy):
    result = cs.condorcet_weights(votenrank_toy, "A")
    fig = plot_condorcet_weights(result)
    assert _gids(fig.axes[0].patches, "bar:") == sorted(votenrank_toy.tasks)
    with pytest.raises(cs.InvalidOptionError, match="can win"):
        plot_certificate(result)


# ---------------------------------------------------------------- analyze --plot at scale
def test_a_rules_top_never_exceeds_k_when_a_tie_group_straddles_it(tmp_path):
    # plurality on 60 systems and 4 tasks: at most 4 systems score, the other 56 tie at position 2 or
    # beyond; positions <= 10 would draw all 60 of them
    lb = _board(60, t=4)
    comp = cs.compare_rules(lb, rules=["mean", "plurality"], missing="auto")
    plurality = comp.positions()["plurality"]
    assert (plurality <= 10).sum() > 10  # the straddling group
    fig = plot_rank_changes(comp, top=10)
    drawn = fig.consensus_systems
    assert len(drawn) <= 20
    in_plurality_top = {s for s in drawn if plurality[s] <= 10 and (plurality == plurality[s]).sum() + plurality[s] - 1 <= 10}
    assert len(in_plurality_top) <= 10


def test_analysis_figure_of_a_350_system_board_names_the_top_30_and_shows_all(tmp_path):
    from consensus.plot import HEATMAP_TOP

    rng = np.random.default_rng(3)
    frame = pd.DataFrame(np.round(50 + 15 * rng.normal(size=(350, 1)) + 3 * rng.normal(size=(350, 6)), 1),
                         columns=[f"t{j}" for j in range(6)], index=[f"org-{i % 9}/model-{i}" for i in range(350)])
    analysis = cs.analyze(cs.Leaderboard.from_frame(frame, infer=False), prospective=False, time_limit=60)
    fig = plot_analysis(analysis)
    heat, overview = fig.axes[0], next(ax for ax in fig.axes if any(im.get_gid() == "overview" for im in ax.images))
    assert heat.images[0].get_array().shape == (HEATMAP_TOP, HEATMAP_TOP)
    labels = [t.get_gid()[6:] for t in heat.texts if (t.get_gid() or "").startswith("label:")]
    assert labels[::2] == list(analysis.kemeny.order[:HEATMAP_TOP])  # row label, then column label
    assert overview.images[0].get_array().shape == (350, 350) and not overview.texts
    assert "the first 30 of 350 systems" in heat.get_title(loc="left")
    assert fig.axes[-1].lines  # the bump chart last
    assert max(fig.get_size_inches()) < 40
    _png(fig, tmp_path)


def test_analysis_figure_of_a_large_board_uses_the_heatmap_and_the_top_k(tmp_path):
    lb = _board(40, t=10)
    analysis = cs.analyze(lb, prospective=False)
    fig = plot_analysis(analysis, top=5)
    _png(fig, tmp_path)
    assert fig.consensus_kind == "heatmap" and fig.consensus_nodes == analysis.kemeny.order
    assert not any(ax.patches for ax in fig.axes[:1])  # no arrows: fast to draw
    bump = fig.axes[-1]
    drawn = {line.get_gid()[7:] for line in bump.lines if (line.get_gid() or "").startswith("system:")}
    assert drawn == set(rank_change_systems(analysis.comparison, top=5))
    _inside_figure(fig, [t for ax in fig.axes for t in ax.texts])


def test_cli_prospective_plot_of_a_system_that_can_never_win(tmp_path):
    from consensus.cli import main

    lb = _dominated()
    path = tmp_path / "board.csv"
    lb.scores.to_csv(path)
    out = tmp_path / "cert.png"
    main(["prospective", str(path), "--system", "b", "--plot", str(out), "--quiet"])
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
