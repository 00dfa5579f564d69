"""Fair top-k re-ranking of scored items, computed in Rust (crate ``fair-ranking``).

:func:`fair_topk` is FA*IR (Zehlike et al., CIKM 2017): two groups, a target minimum share
``p`` of protected items, every prefix of the output passing FA*IR's ranked group fairness test
(:func:`fairkit.metrics.ranked_group_fairness`). :func:`deterministic_rerank` runs Geyik et
al.'s DetGreedy, DetCons, DetRelaxed or DetConstSort (KDD 2019) for any number of groups with a
target share each, as AIF360's ``DeterministicReranking`` does (see ``docs/ranking.md`` for the
two places it differs). Both take a pandas DataFrame with one row per item, one query or many
(``query=`` a column), and return the chosen rows in ranked order.
:func:`exposure_fair_ranking` is Singh & Joachims' exposure-fair probabilistic ranking of one
query (KDD 2018): a linear program over doubly stochastic matrices, decomposed into rankings and
sampled with a seed.
"""

from fairkit.ranking._exposure import ExposureRanking, exposure_fair_ranking
from fairkit.ranking._rerank import deterministic_rerank, fair_topk

__all__ = ["ExposureRanking", "deterministic_rerank", "exposure_fair_ranking", "fair_topk"]
