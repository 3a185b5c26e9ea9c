"""``reviewtui agreement FILE``: how far a team's reviewers agree, from their journals."""

from __future__ import annotations

import argparse
import sys

from reviewtui.cli.exits import EXIT_OK
from reviewtui.cli.options import add_input_format, add_set_file, add_split
from reviewtui.cli.output import say, say_skipped, write_stdout

NAME = "agreement"


def register(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser(
        NAME,
        help="agreement between reviewers of a set (percent, Cohen's and Fleiss' kappa, Krippendorff's alpha, AC1)",
        description=(
            "Read every reviewer's journal (without locking or changing any) and measure how far they agree on the "
            "items more than one of them decided: on verdicts, on reject reasons and on question types. Each figure "
            "comes with a 95% interval (bootstrap over items, seeded)."
        ),
    )
    add_set_file(parser)
    parser.add_argument("--to", dest="output_format", choices=("text", "json"), default="text", help="text (default) or json")
    parser.add_argument(
        "--resamples",
        type=_resamples,
        default=1000,
        metavar="N",
        help=f"bootstrap resamples, {MIN_RESAMPLES} to {MAX_RESAMPLES:,} (default 1000), or 0 for no intervals",
    )
    add_input_format(parser)
    add_split(parser)
    parser.set_defaults(func=run)


#: More resamples than this change an interval's third decimal no more, and only take longer.
MAX_RESAMPLES = 100_000
#: Fewer than this cannot place a 95 % interval's ends (its 2.5th and 97.5th percentiles): one or two resamples
#: gave "95% interval 0.333 to 0.333" beside an estimate of 0.542.
MIN_RESAMPLES = 100


def _resamples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value != 0 and not MIN_RESAMPLES <= value <= MAX_RESAMPLES:
        if value < 0:
            why = "a number of resamples cannot be negative"
        elif value < MIN_RESAMPLES:
            why = "fewer resamples cannot place a 95% interval's ends"
        else:
            why = "more only take longer, the intervals no closer"
        raise argparse.ArgumentTypeError(
            f"must be between {MIN_RESAMPLES} and {MAX_RESAMPLES:,} (or 0 for no intervals), not {value}: {why}"
        )
    return value


def run(args: argparse.Namespace) -> int:
    import orjson

    from reviewtui.cli.output import warn
    from reviewtui.evalset.io import open_evalset, require_questions
    from reviewtui.evalset.model.errors import InputError
    from reviewtui.evalset.review.agreement import agreement_report
    from reviewtui.evalset.review.team import TeamPlan
    from reviewtui.evalset.review.teamwork import decided_by, edited_apart, label_scale, ratings_from, team_decisions
    from reviewtui.evalset.text.counts import count

    plan = TeamPlan.load(args.file, args.split)
    if plan is None:
        raise InputError("this set has no team plan; reviewtui assign FILE --reviewers A,B --overlap 2 makes one", path=args.file)
    evalset = require_questions(open_evalset(args.file, format=args.input_format, split=args.split), args.file)
    say_skipped(evalset, sys.stderr, args.file, args.input_format)
    notes: list[str] = []
    decisions = team_decisions(plan, evalset, args.file, notes)  # every journal read once
    for note in notes:  # on standard error: the JSON on standard output stays JSON
        warn(f"note: {note}")
    decided = decided_by(plan, decisions)
    reports = {
        what: agreement_report(ratings_from(decisions, what), categories=label_scale(what), resamples=args.resamples, seed=0)
        for what in ("verdict", "reason", "qtype")
    }
    apart = edited_apart(decisions)
    if args.output_format == "json":
        data = {
            "reviewers": list(plan.reviewers),
            "decided": decided,
            **{what: _as_dict(r) for what, r in reports.items()},
            "edited_apart": apart,
        }
        text = orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS, default=_plain).decode()
        write_stdout(text + "\n", whole_lines=True)
        return EXIT_OK
    say(f"{count(len(plan.reviewers), 'reviewer')}; decisions: " + ", ".join(f"{r} {n:,}" for r, n in decided.items()))
    pace = _pace(decisions)
    for summary in reports["verdict"].per_reviewer:
        rejected = summary.share("rejected")
        parts = [f"{summary.items:,} judged"]
        if rejected is not None:
            parts.append(f"{rejected:.0%} rejected")
        if summary.consensus_agreement is not None:
            parts.append(f"agrees with the others' majority on {summary.consensus_agreement:.0%} of {summary.consensus_items:,}")
        if summary.reviewer in pace:
            parts.append(pace[summary.reviewer])
        say(f"  {summary.reviewer}: " + ", ".join(parts))
    for what, report in reports.items():
        say("")
        say(f"on {what}s: {count(report.compared_items, 'item')} judged by more than one reviewer (skips aside)")
        if not report.compared_items:
            continue
        for label, estimate in (
            ("percent agreement", report.percent_agreement),
            ("Fleiss' kappa", report.fleiss_kappa),
            ("Krippendorff's alpha", report.krippendorff_alpha),
            ("Gwet's AC1", report.gwet_ac1),
        ):
            shown = _estimate(estimate, args.resamples, report.compared_items, percent=estimate is report.percent_agreement)
            say(f"  {label:<22} {shown}")
        for pair in report.pairs:
            if pair.items:
                kappa = _estimate(pair.kappa, args.resamples, pair.items)
                say(f"  Cohen's kappa {pair.first} / {pair.second}: {kappa} on {count(pair.items, 'item')}")
        if what == "verdict" and apart:
            shown = ", ".join(repr(item_id) for item_id in apart[:5]) + (f" and {len(apart) - 5:,} more" if len(apart) > 5 else "")
            say(
                f"  edited apart: {count(len(apart), 'item')} every reviewer edited, not all into the same version "
                f"(agreeing on the verdict above; a disagreement for reviewtui adjudicate): {shown}"
            )
    return EXIT_OK


def _pace(decisions: dict) -> dict[str, str]:
    """Reviewer -> their pace, from the time each decision was on screen."""
    seconds: dict[str, float] = {}
    counts: dict[str, int] = {}
    for mine in decisions.values():
        for reviewer, decision in mine.items():
            seconds[reviewer] = seconds.get(reviewer, 0.0) + decision.seconds
            counts[reviewer] = counts.get(reviewer, 0) + 1
    return {r: f"{counts[r] * 3600 / seconds[r]:,.0f} per hour" for r in counts if seconds[r] >= 1}


#: Below this many compared items a bootstrap interval is said to be too narrow (see _estimate).
FEW_ITEMS = 10


def _estimate(estimate, resamples: int, items: int, *, percent: bool = False) -> str:
    """An agreement.Estimate as text, given the resamples asked for and the items compared; ``percent``: written as
    a percentage (percent agreement: "0.750" beside its name read as a coefficient, or as three quarters of a
    percent), where the coefficients stay numbers from -1 to 1."""
    number = "{:.1%}" if percent else "{:.3f}"
    if estimate.value is None:
        # Printed only for items that were compared, so the one way to be undefined here is a 0/0: every rating
        # on them carries one and the same label (see agreement.py's notes). "or too few items" was never the cause.
        return "undefined (every rating on these items is the same label: no disagreement to measure)"
    if resamples and items < 2:
        # Every resample of one item is that item again: "0.333 (95% interval 0.333 to 0.333)" claimed a certainty
        # that one item cannot give (the report holds none, so JSON says the same: no low, no high).
        return f"{number.format(estimate.value)}  (no interval from a single item)"
    if estimate.low is None:
        return number.format(estimate.value)
    # Resamples on which the statistic is 0/0 (all one label: the ones that drew no disagreement) are left out, so
    # the interval is of the others only; unsaid, "-0.067 (95% interval -0.231 to -0.067)" read as a plain interval.
    left_out = resamples - estimate.resamples
    of = ""
    if left_out > 0:
        of = f" from {estimate.resamples:,} of {resamples:,} resamples; undefined on the other {left_out:,}, all one label"
    if items < FEW_ITEMS:
        # Resampling a handful of items cannot show how much they vary: such an interval is narrower than the truth and
        # misses the true value far more often than one time in twenty. Said, as the figure is still the one there is.
        of += f"; from only {items} items, narrower than it should be"
    interval = f"  (95% interval {number.format(estimate.low)} to {number.format(estimate.high)}{of})"
    return f"{number.format(estimate.value)}{interval}"


def _as_dict(report) -> dict:
    import dataclasses

    data = dataclasses.asdict(report)
    # As the text says it: every resample of a single item is that item again, so it gives no interval, not one
    # from 0.333 to 0.333 (the library's Estimate keeps that zero-width interval; the report does not claim it).
    overall = ("percent_agreement", "fleiss_kappa", "krippendorff_alpha", "gwet_ac1")
    single = [data[name] for name in overall] if report.compared_items < 2 else []
    single += [estimate for pair in data["pairs"] if pair["items"] < 2 for estimate in (pair["observed"], pair["kappa"])]
    for estimate in single:
        estimate["low"] = estimate["high"] = None
    return data


def _plain(value: object) -> object:
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    return str(value)
